#ifndef KILN_CLIBXML2_SHIM_H
#define KILN_CLIBXML2_SHIM_H
// The system libxml2 (Debian 12: 2.9.14), for KilnSymbols alone. The parser context and its SAX
// handler are used directly: a per-context structured error callback and an entity declaration
// hook are what keep parsing thread-safe and entity-free on a libxml2 this old (it has no
// XML_PARSE_NO_XXE and no per-context error handler setter).
//
// Debian's libxml2 is built with ICU, so encoding.h would include ICU's <unicode/ucnv.h>, whose
// UErrorCode clashes with Foundation's own ICU copy in any module that sees both ("UErrorCode has
// different definitions in different modules", depending on which module the compiler met
// first). ICU appears only in the converter fields at the end of xmlCharEncodingHandler, which
// Kiln never touches (it reads no encoding handler's fields and allocates none), so the headers
// are read without it.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/SAX2.h>

// xmlFree is a global function pointer, which Swift 6 refuses to read as shared mutable state.
static inline void kiln_xml_free(void *memory) { xmlFree(memory); }
#endif
