#ifndef KILN_CSQLITE_SHIM_H
#define KILN_CSQLITE_SHIM_H
// The system SQLite. SQLITE_TRANSIENT is a cast of -1 to a destructor pointer, which Swift cannot
// import, so it is re-exported here.
#include <sqlite3.h>

static inline sqlite3_destructor_type kiln_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
