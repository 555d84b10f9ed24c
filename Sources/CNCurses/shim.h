#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H
// SwiftPM drops pkg-config's -D_XOPEN_SOURCE: ask for the wide-character API explicitly.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <ncursesw/curses.h>
#endif
