/** @file api.h Public API. */
/**
 * Open a connection.
 * @param host server name
 * @return a handle or -1 on error
 */
int open_conn(const char *host, int port);
