#ifndef KILN_CCRYPTO_SHIM_H
#define KILN_CCRYPTO_SHIM_H
// OpenSSL's libcrypto: SHA-256 through the EVP interface, for frame digests and cache keys.
#include <openssl/evp.h>
#endif
