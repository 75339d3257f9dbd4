/* tool_paths.h — where an installed tool finds the data installed with it.
 *
 * A tool built in the tree has the source tree's spec path compiled in; once installed
 * (cmake --install) it must use the copy installed beside it, so a tool first looks for
 * RELATIVE (e.g. "../share/xphmg/xphmg.xml") from the directory of its own executable. */
#ifndef XPHMG_TOOL_PATHS_H
#define XPHMG_TOOL_PATHS_H

#include <stddef.h>

/* RELATIVE resolved against the running executable's directory when that file exists
 * (written to buf), else fallback. */
const char *tool_installed_path(const char *relative, const char *fallback, char *buf, size_t len);

/* The installed spec relative to bin/ (cmake/install.cmake installs it there). */
#define TOOL_INSTALLED_SPEC "../share/xphmg/xphmg.xml"

#endif
