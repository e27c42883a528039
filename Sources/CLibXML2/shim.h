#ifndef KILN_CLIBXML2_SHIM_H
#define KILN_CLIBXML2_SHIM_H
// The system libxml2 (Debian 12: 2.9.14), for KilnSymbols alone. The parser context and its SAX
// handler are used directly: a per-context structured error callback and an entity declaration
// hook are what keep parsing thread-safe and entity-free on a libxml2 this old (it has no
// XML_PARSE_NO_XXE and no per-context error handler setter).
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/SAX2.h>

// xmlFree is a global function pointer, which Swift 6 refuses to read as shared mutable state.
static inline void kiln_xml_free(void *memory) { xmlFree(memory); }
#endif
