# Installing tilescope (`cmake --install BUILD [--prefix P]`) and its Debian package (`cpack -G
# DEB` in the build folder): bin/tilescope, and in share/tilescope/ what it reads at run time
# (kernels/, shaders/, assets/ with the chart, the examples, the lessons and the demos) and the
# guides (docs/); the man page, made by the built program from the option tables --help prints
# (tilescope --man), and the bash completion, which asks the program (dist/tilescope.bash).
# The installed program finds its data as ../share/tilescope beside itself
# (app/paths/paths.c), so bin/ and share/ keep these names and a prefix may be moved whole.
set(TS_MAN ${PROJECT_BINARY_DIR}/tilescope.1)
# (leak checking off: a sanitizer build runs it too, and the build is not its test)
add_custom_command(OUTPUT ${TS_MAN}
  COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0 $<TARGET_FILE:tilescope> --man ${TS_MAN}
  DEPENDS tilescope
  COMMENT "Writing the man page from the option tables (tilescope --man)" VERBATIM)
add_custom_target(man ALL DEPENDS ${TS_MAN})

install(TARGETS tilescope RUNTIME DESTINATION bin)
install(DIRECTORY kernels shaders DESTINATION share/tilescope)
install(DIRECTORY assets DESTINATION share/tilescope
        PATTERN CMakeLists.txt EXCLUDE PATTERN mkchart.c EXCLUDE)
file(GLOB TS_DOCS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${TS_DOCS} DESTINATION share/tilescope/docs)
install(FILES ${TS_MAN} DESTINATION share/man/man1)
install(FILES dist/tilescope.bash DESTINATION share/bash-completion/completions
        RENAME tilescope)

# The package: Debian 12's libraries that the program links, named outright (as
# dpkg-shlibdeps would find them, without needing dpkg-dev to build it); libclang's OpenCL
# headers (opencl-c.h), which it reads when it parses a plain kernel; the font the viewer
# draws with; pocl, the OpenCL platform of a machine without a GPU's, recommended.
set(CPACK_PACKAGE_NAME tilescope)
set(CPACK_PACKAGE_VENDOR tilescope)
set(CPACK_PACKAGE_CONTACT "tilescope maintainers <tilescope@invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "visual debugger for tiled OpenCL image kernels and their thread schedules")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "tilescope simulates a GPU's thread dispatcher tick by tick and runs each\n"
    "OpenCL kernel in that order beside a bit-exact CPU model; it observes plain\n"
    "OpenCL C kernels, naming every out-of-bounds access, race and barrier divergence\n"
    "by file and line (also as SARIF for code scanning). The viewer draws it; the\n"
    "commands run it headless for scripts and CI.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(TS_DEB_DEPENDS "libc6, libpng16-16, zlib1g, ocl-icd-libopencl1 | libopencl1, libclang1-15, libclang-common-15-dev")
set(TS_DEB_RECOMMENDS "pocl-opencl-icd")
if(TS_VIEWER)
  string(APPEND TS_DEB_DEPENDS ", libsdl2-2.0-0, libsdl2-ttf-2.0-0, libepoxy0, libgif7, libegl1, libgl1, fonts-dejavu-core")
  string(APPEND TS_DEB_RECOMMENDS ", libegl-mesa0, libgl1-mesa-dri")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${TS_DEB_DEPENDS}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "${TS_DEB_RECOMMENDS}")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, man-db")
include(CPack)
