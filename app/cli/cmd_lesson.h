/* `tilescope lesson [N FILE]` (cmd_lesson.c): the course in assets/lessons/ and its checkers. */
#ifndef TS_APP_CMD_LESSON_H
#define TS_APP_CMD_LESSON_H

/* Lists the lessons, or checks FILE as an answer to lesson N: exit 0 pass, 1 not yet, 2 bad
 * input. */
int cmd_lesson(int argc, char **argv);

#endif
