// fixed-rate: an open-loop HTTP/1.1 load generator for loopback benchmarks (`make bench-hook`).
//
//   fixed-rate -a 127.0.0.1 -p PORT -P /v1/hooks/main [-b body.json] [-t content/type]
//              -r 5000 -d 10 [-c 32] [-w 2]
//
// Requests are due at fixed instants (start + i / rate), whether or not earlier answers have
// come back. Each latency is measured from the instant the request was DUE, not from when a
// connection was free to send it (the "coordinated omission" correction of wrk2): a stalled
// server cannot hide its stall by slowing the generator down. Keep-alive connections, one request
// in flight per connection; a request due while every connection is busy waits in a queue and its
// wait counts. One thread, epoll + an absolute timerfd; no allocation on the request path.
//
// Output: a human summary on stderr and, last on stdout, a machine-readable line:
//   FIXED_RATE rate=<achieved/s> sent=<n> ok=<2xx> non2xx=<n> errors=<n> p50_ms=<x> p90_ms=<x>
//              p99_ms=<x> p999_ms=<x> max_ms=<x>
// The warm-up (-w seconds, same rate) is sent and answered but not recorded.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

enum { READ_BUFFER = 65536, MAX_CONNECTIONS = 1024 };

typedef struct {
    int fd;
    int busy;
    int64_t due;     // when the in-flight request was due (ns, CLOCK_MONOTONIC)
    int recorded;    // whether its latency counts (not warm-up)
    size_t filled;   // bytes of the answer read so far
    char buffer[READ_BUFFER];
} Connection;

static Connection connections[MAX_CONNECTIONS];
static int connection_count = 32;
static struct sockaddr_in address;
static char *request;
static size_t request_length;
static int epoll_fd;

static int64_t *latencies;
static size_t latency_count, latency_capacity;
static uint64_t sent, ok, non2xx, errors;
// The instant the run started, for the times printed beside a non-2xx answer.
static int64_t origin;

// Requests due while every connection was busy: their due instants, first in first out.
static int64_t *backlog;
static int *backlog_recorded;
static size_t backlog_head, backlog_tail, backlog_capacity;

static int idle[MAX_CONNECTIONS];
static int idle_count;

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void die(const char *what) {
    perror(what);
    exit(2);
}

static void open_connection(int index) {
    Connection *c = &connections[index];
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (c->fd < 0) die("socket");
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(c->fd, (struct sockaddr *)&address, sizeof address) != 0) die("connect");
    fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);
    struct epoll_event event = {.events = EPOLLIN, .data.u32 = (uint32_t)index};
    if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, c->fd, &event) != 0) die("epoll_ctl");
    c->busy = 0;
    c->filled = 0;
}

// Replaces a connection the server closed (or that failed); the caller hands it out again.
static void reopen(int index) {
    epoll_ctl(epoll_fd, EPOLL_CTL_DEL, connections[index].fd, NULL);
    close(connections[index].fd);
    open_connection(index);
}

static void send_on(int index, int64_t due, int recorded) {
    Connection *c = &connections[index];
    c->busy = 1;
    c->due = due;
    c->recorded = recorded;
    c->filled = 0;
    size_t written = 0;
    while (written < request_length) {
        ssize_t n = write(c->fd, request + written, request_length - written);
        if (n > 0) {
            written += (size_t)n;
        } else if (n < 0 && errno == EAGAIN) {
            // The request is a few KB on loopback: the socket buffer never fills; wait if it does.
            struct timespec pause = {0, 10000};
            nanosleep(&pause, NULL);
        } else {
            if (recorded) errors++;
            reopen(index);
            idle[idle_count++] = index;
            return;
        }
    }
    sent++;
}

static void dispatch(int64_t due, int recorded) {
    if (idle_count > 0) {
        send_on(idle[--idle_count], due, recorded);
        return;
    }
    if (backlog_tail - backlog_head == backlog_capacity) {
        fprintf(stderr, "fixed-rate: backlog full (%zu requests): the server is far behind\n", backlog_capacity);
        exit(3);
    }
    backlog[backlog_tail % backlog_capacity] = due;
    backlog_recorded[backlog_tail % backlog_capacity] = recorded;
    backlog_tail++;
}

static void release(int index) {
    connections[index].busy = 0;
    if (backlog_head < backlog_tail) {
        size_t slot = backlog_head++ % backlog_capacity;
        send_on(index, backlog[slot], backlog_recorded[slot]);
    } else {
        idle[idle_count++] = index;
    }
}

// Parses the answer in the buffer; returns 1 when it is complete (and counted), 2 when complete
// and the server said `Connection: close` (the connection must be replaced before reuse).
static int complete_answer(Connection *c, int64_t now) {
    c->buffer[c->filled < READ_BUFFER ? c->filled : READ_BUFFER - 1] = 0;
    char *end = memmem(c->buffer, c->filled, "\r\n\r\n", 4);
    if (!end) return 0;
    size_t header_length = (size_t)(end - c->buffer) + 4;
    long content_length = -1;
    int closing = 0;
    // Each header line starts after a CRLF; `next` is the CRLF that ends it.
    for (char *line = strstr(c->buffer, "\r\n"), *next; line && line < end; line = next) {
        next = strstr(line + 2, "\r\n");
        if (strncasecmp(line + 2, "content-length:", 15) == 0) content_length = strtol(line + 17, NULL, 10);
        if (strncasecmp(line + 2, "connection:", 11) == 0) {
            char *token = strcasestr(line + 13, "close");
            if (token && token < next) closing = 1;
        }
    }
    if (content_length < 0) {
        fprintf(stderr, "fixed-rate: an answer without Content-Length\n");
        exit(4);
    }
    if (c->filled < header_length + (size_t)content_length) return 0;
    int status = (int)strtol(c->buffer + 9, NULL, 10);
    if (c->recorded) {
        if (status >= 200 && status < 300) {
            ok++;
        } else if (non2xx++ < 20) {
            // What answered and why, for the caller's log: the status line, the headers' end, the body.
            int shown = (int)(header_length + (size_t)content_length < 400 ? header_length + (size_t)content_length : 400);
            fprintf(stderr, "fixed-rate: %d at %.3f s (due %.3f s): %.*s\n", status, (double)(now - origin) / 1e9,
                    (double)(c->due - origin) / 1e9, shown, c->buffer);
        }
        if (latency_count < latency_capacity) latencies[latency_count++] = now - c->due;
    }
    return closing ? 2 : 1;
}

static int compare(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static double percentile(double p) {
    if (latency_count == 0) return 0;
    // Nearest rank: the smallest value with at least p of the samples at or below it.
    size_t rank = (size_t)ceil(p * (double)latency_count);
    rank = rank == 0 ? 0 : rank - 1;
    if (rank >= latency_count) rank = latency_count - 1;
    return (double)latencies[rank] / 1e6;
}

static void usage(void) {
    fprintf(stderr, "usage: fixed-rate -a ADDR -p PORT -P PATH [-b BODYFILE] [-t TYPE] -r RATE -d SECONDS "
                    "[-c CONNECTIONS] [-w WARMUP_SECONDS]\n");
    exit(1);
}

int main(int argc, char **argv) {
    const char *host = "127.0.0.1", *path = "/", *body_file = NULL, *type = "application/json";
    int port = 0, opt;
    double rate = 0, seconds = 0, warmup = 0;
    while ((opt = getopt(argc, argv, "a:p:P:b:t:r:d:c:w:")) != -1) {
        switch (opt) {
        case 'a': host = optarg; break;
        case 'p': port = atoi(optarg); break;
        case 'P': path = optarg; break;
        case 'b': body_file = optarg; break;
        case 't': type = optarg; break;
        case 'r': rate = atof(optarg); break;
        case 'd': seconds = atof(optarg); break;
        case 'c': connection_count = atoi(optarg); break;
        case 'w': warmup = atof(optarg); break;
        default: usage();
        }
    }
    if (port <= 0 || rate <= 0 || seconds <= 0 || connection_count < 1 || connection_count > MAX_CONNECTIONS) usage();

    char *body = NULL;
    size_t body_length = 0;
    if (body_file) {
        FILE *f = fopen(body_file, "rb");
        if (!f) die(body_file);
        struct stat st;
        fstat(fileno(f), &st);
        body_length = (size_t)st.st_size;
        body = malloc(body_length + 1);
        if (fread(body, 1, body_length, f) != body_length) die("read body");
        fclose(f);
    }
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) usage();
    const char *head_format = body ? "POST %s HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: %s\r\nContent-Length: %zu\r\n\r\n"
                                   : "GET %s HTTP/1.1\r\nHost: %s:%d\r\n\r\n";
    int head_length = body ? snprintf(NULL, 0, head_format, path, host, port, type, body_length)
                           : snprintf(NULL, 0, head_format, path, host, port);
    if (head_length < 0) die("snprintf");
    request = malloc((size_t)head_length + body_length + 1);
    if (!request) die("malloc");
    if (body) {
        snprintf(request, (size_t)head_length + 1, head_format, path, host, port, type, body_length);
        memcpy(request + head_length, body, body_length);
    } else {
        snprintf(request, (size_t)head_length + 1, head_format, path, host, port);
    }
    request_length = (size_t)head_length + body_length;

    latency_capacity = (size_t)(rate * seconds) + 16;
    latencies = malloc(latency_capacity * sizeof *latencies);
    backlog_capacity = (size_t)(rate * (seconds + warmup)) + 16;
    backlog = malloc(backlog_capacity * sizeof *backlog);
    backlog_recorded = malloc(backlog_capacity * sizeof *backlog_recorded);
    if (!latencies || !backlog || !backlog_recorded) die("malloc");

    epoll_fd = epoll_create1(0);
    for (int i = 0; i < connection_count; i++) {
        open_connection(i);
        idle[idle_count++] = i;
    }
    int timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
    struct epoll_event timer_event = {.events = EPOLLIN, .data.u32 = UINT32_MAX};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, timer, &timer_event);

    const int64_t interval = (int64_t)(1e9 / rate);
    const uint64_t warmup_requests = (uint64_t)(warmup * rate);
    const uint64_t total = warmup_requests + (uint64_t)(seconds * rate);
    const int64_t start = now_ns() + 1000000;
    origin = start;
    int64_t measured_start = start + (int64_t)warmup_requests * interval, measured_end = 0;
    uint64_t next = 0;  // index of the next request to become due
    const int64_t drain_deadline_after = 5000000000LL;
    struct epoll_event events[MAX_CONNECTIONS + 1];

    for (;;) {
        int64_t now = now_ns();
        while (next < total && start + (int64_t)next * interval <= now) {
            dispatch(start + (int64_t)next * interval, next >= warmup_requests);
            next++;
        }
        int in_flight = connection_count - idle_count;
        if (next == total) {
            if (measured_end == 0) measured_end = start + (int64_t)total * interval;
            if (in_flight == 0 && backlog_head == backlog_tail) break;
            if (now > measured_end + drain_deadline_after) {
                uint64_t missing = (uint64_t)in_flight + (backlog_tail - backlog_head);
                errors += missing;
                fprintf(stderr, "fixed-rate: %llu answers still missing 5 s after the last request\n",
                        (unsigned long long)missing);
                break;
            }
        } else {
            int64_t due = start + (int64_t)next * interval;
            struct itimerspec at = {.it_value = {.tv_sec = due / 1000000000LL, .tv_nsec = due % 1000000000LL}};
            timerfd_settime(timer, TFD_TIMER_ABSTIME, &at, NULL);
        }
        int n = epoll_wait(epoll_fd, events, MAX_CONNECTIONS + 1, next == total ? 100 : -1);
        if (n < 0 && errno != EINTR) die("epoll_wait");
        now = now_ns();
        for (int i = 0; i < n; i++) {
            uint32_t index = events[i].data.u32;
            if (index == UINT32_MAX) {
                uint64_t expirations;
                ssize_t ignored = read(timer, &expirations, sizeof expirations);
                (void)ignored;
                continue;
            }
            Connection *c = &connections[index];
            for (;;) {
                ssize_t got = read(c->fd, c->buffer + c->filled, READ_BUFFER - 1 - c->filled);
                if (got > 0) {
                    c->filled += (size_t)got;
                    int complete = c->busy ? complete_answer(c, now) : 0;
                    if (complete == 2) reopen((int)index);
                    if (complete) {
                        release((int)index);
                        break;
                    }
                    if (c->filled >= READ_BUFFER - 1) {
                        fprintf(stderr, "fixed-rate: an answer larger than %d bytes\n", READ_BUFFER);
                        exit(4);
                    }
                } else if (got < 0 && errno == EINTR) {
                    continue;
                } else if (got < 0 && errno == EAGAIN) {
                    break;
                } else {
                    // The server closed the connection (or it failed): the request in flight is lost.
                    if (c->busy) {
                        if (c->recorded && errors++ < 20)
                            fprintf(stderr, "fixed-rate: connection closed with a request in flight at %.3f s (due %.3f s)\n",
                                    (double)(now - origin) / 1e9, (double)(c->due - origin) / 1e9);
                    } else {
                        for (int k = 0; k < idle_count; k++)
                            if (idle[k] == (int)index) { idle[k] = idle[--idle_count]; break; }
                    }
                    reopen((int)index);
                    release((int)index);
                    break;
                }
            }
        }
    }

    double elapsed = (double)(measured_end - measured_start) / 1e9;
    qsort(latencies, latency_count, sizeof *latencies, compare);
    uint64_t measured_sent = sent > warmup_requests ? sent - warmup_requests : 0;
    double achieved = elapsed > 0 ? (double)latency_count / elapsed : 0;
    fprintf(stderr,
            "fixed-rate: %.0f requests/s asked, %.0f/s answered over %.1f s on %d connections "
            "(%llu sent, %llu 2xx, %llu non-2xx, %llu errors)\n"
            "  latency from the due instant: p50 %.3f ms  p90 %.3f ms  p99 %.3f ms  p99.9 %.3f ms  max %.3f ms\n",
            rate, achieved, elapsed, connection_count, (unsigned long long)measured_sent, (unsigned long long)ok,
            (unsigned long long)non2xx, (unsigned long long)errors, percentile(0.50), percentile(0.90),
            percentile(0.99), percentile(0.999), latency_count ? (double)latencies[latency_count - 1] / 1e6 : 0);
    printf("FIXED_RATE rate=%.0f sent=%llu ok=%llu non2xx=%llu errors=%llu p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f "
           "p999_ms=%.3f max_ms=%.3f\n",
           achieved, (unsigned long long)measured_sent, (unsigned long long)ok, (unsigned long long)non2xx,
           (unsigned long long)errors, percentile(0.50), percentile(0.90), percentile(0.99), percentile(0.999),
           latency_count ? (double)latencies[latency_count - 1] / 1e6 : 0);
    return errors > 0 || non2xx > 0 ? 5 : 0;
}
