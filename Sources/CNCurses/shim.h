#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H
// SwiftPM drops pkg-config's -D_XOPEN_SOURCE: ask for the wide-character API explicitly.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <langinfo.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <ncursesw/curses.h>

// Macros and C globals are not importable under Swift 6: wrap them.
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }
static inline int cn_colors(void) { return COLORS; }
static inline attr_t cn_color_pair(short pair) { return COLOR_PAIR(pair); }
static inline attr_t cn_a_normal(void) { return A_NORMAL; }
static inline attr_t cn_a_bold(void) { return A_BOLD; }
static inline attr_t cn_a_dim(void) { return A_DIM; }
static inline attr_t cn_a_reverse(void) { return A_REVERSE; }
static inline attr_t cn_a_underline(void) { return A_UNDERLINE; }
static inline int cn_attrset(attr_t attributes) { return wattrset(stdscr, (int)attributes); }
static inline int cn_mvaddstr(int y, int x, const char *text) { return mvwaddstr(stdscr, y, x, text); }
static inline int cn_keypad(bool on) { return keypad(stdscr, on); }
static inline int cn_nodelay(bool on) { return nodelay(stdscr, on); }
static inline int cn_get_wch(wint_t *key) { return wget_wch(stdscr, key); }
static inline int cn_erase(void) { return werase(stdscr); }
static inline int cn_refresh(void) { return wrefresh(stdscr); }
static inline int cn_clearok(bool on) { return clearok(stdscr, on); }
static inline int cn_is_utf8_locale(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != 0 && (codeset[0] == 'U' || codeset[0] == 'u') && (codeset[1] == 'T' || codeset[1] == 't')
        && (codeset[2] == 'F' || codeset[2] == 'f');
}
// Whether $TERM names a terminal the terminfo database describes (initscr() prints "Error opening
// terminal" and exits otherwise). setupterm is terminfo's (term.h, whose macros would clash with Swift).
extern int setupterm(const char *, int, int *);
static inline int cn_terminal_known(void) {
    int error = 0;
    return setupterm(0, STDOUT_FILENO, &error) == 0 ? 1 : 0;
}
// The terminal's size from the kernel (after SIGWINCH); 0 on success.
static inline int cn_window_size(int *rows, int *columns) {
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}
#endif
