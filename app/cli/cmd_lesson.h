/* `tilescope lesson [N FILE...]` (cmd_lesson.c): the course in assets/lessons/ and its
 * checkers. */
#ifndef TS_APP_CMD_LESSON_H
#define TS_APP_CMD_LESSON_H

/* Lists the lessons, or checks each FILE as an answer to lesson N (--json: as one JSON
 * object): exit 0 every file passes, 1 one is not yet right, 2 bad input or a file that
 * could not be checked. */
int cmd_lesson(int argc, char **argv);

#endif
