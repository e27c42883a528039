#ifndef KILN_CLIBPQ_SHIM_H
#define KILN_CLIBPQ_SHIM_H
// PostgreSQL's client library, for the queue's shared backend.
#include <libpq-fe.h>
#include <postgres_ext.h>

static inline int kiln_pg_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
#endif
