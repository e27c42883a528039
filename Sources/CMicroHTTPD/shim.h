#ifndef KILN_CMICROHTTPD_SHIM_H
#define KILN_CMICROHTTPD_SHIM_H
// The system libmicrohttpd. MHD_start_daemon takes its options as C varargs, which Swift cannot
// call, so the one configuration the studio uses is spelled out here.
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/// Starts a daemon listening on the IPv4 address `host` (dotted quad, e.g. "127.0.0.1") and
/// `port` (0: the kernel picks a free one; read it back with kiln_mhd_bound_port). A thread per
/// connection under MHD's own polling thread, so a slow frame render does not hold up /job.
/// `notify_connection` and `notify_completed` (with `context`) let the caller see each
/// connection's socket and when it is between requests. NULL when the address does not parse or
/// the socket cannot be bound.
static inline struct MHD_Daemon *kiln_mhd_start(const char *host, uint16_t port,
                                                 MHD_AccessHandlerCallback handler, void *context,
                                                 unsigned int connection_limit,
                                                 unsigned int per_ip_connection_limit,
                                                 unsigned int timeout_seconds,
                                                 MHD_NotifyConnectionCallback notify_connection,
                                                 MHD_RequestCompletedCallback notify_completed) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) return NULL;
    return MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL, port, NULL, NULL,
        handler, context, MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)&address,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
        per_ip_connection_limit, MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_NOTIFY_CONNECTION, notify_connection, context, MHD_OPTION_NOTIFY_COMPLETED,
        notify_completed, context, MHD_OPTION_END);
}

/// The socket of `connection`, or -1.
static inline int kiln_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The port the daemon listens on (the kernel's choice when started with port 0); 0 if unknown.
static inline uint16_t kiln_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// A response holding a copy of `size` bytes (MHD sends it after the handler returns).
static inline struct MHD_Response *kiln_mhd_copied_response(const void *bytes, size_t size) {
    return MHD_create_response_from_buffer(size, (void *)bytes, MHD_RESPMEM_MUST_COPY);
}
#endif
