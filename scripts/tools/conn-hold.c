// Holds idle and slowloris connections open against a loopback HTTP server, reopening each one
// as soon as the server closes it, as an attacker does: `make bench-hook`'s "under attack" round.
//
//   conn-hold -p PORT -i IDLE -s SLOWLORIS -d SECONDS
//
// One thread, epoll, non-blocking sockets: the attacker costs little CPU, so the hook's latency
// under attack measures the server, not the harness (scripts/tools/conn-flood.py, in Python, took
// most of a core on a 2-core machine). Slowloris connections send a request line at once and one
// header line every 5 s. The last line is machine-readable:
//   ATTACK mode=hold idle=<n> slowloris=<n> opened=<n> closed_by_server=<n> answered_408=<n> connect_failed=<n>
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    int fd;
    int slow;          // a slowloris connection
    int64_t next_line; // when it sends its next header line (ns)
    int lines;
} Slot;

static struct sockaddr_in address;
static int epoll_fd;
static Slot *slots;
static unsigned long long opened, closed_by_server, answered_408, connect_failed;

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void open_slot(int index) {
    Slot *s = &slots[index];
    s->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (s->fd < 0) {
        connect_failed++;
        return;
    }
    if (connect(s->fd, (struct sockaddr *)&address, sizeof address) != 0 && errno != EINPROGRESS) {
        connect_failed++;
        close(s->fd);
        s->fd = -1;
        return;
    }
    opened++;
    struct epoll_event event = {.events = EPOLLIN | EPOLLRDHUP, .data.u32 = (uint32_t)index};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, s->fd, &event);
    s->lines = 0;
    s->next_line = now_ns() + (s->slow ? 100000000LL : 0);  // the request line 0.1 s after connecting
}

static void reopen(int index) {
    epoll_ctl(epoll_fd, EPOLL_CTL_DEL, slots[index].fd, NULL);
    close(slots[index].fd);
    open_slot(index);
}

int main(int argc, char **argv) {
    int port = 0, idle = 5000, slow = 2000, seconds = 20, option;
    while ((option = getopt(argc, argv, "p:i:s:d:")) != -1) {
        switch (option) {
        case 'p': port = atoi(optarg); break;
        case 'i': idle = atoi(optarg); break;
        case 's': slow = atoi(optarg); break;
        case 'd': seconds = atoi(optarg); break;
        default: fprintf(stderr, "usage: conn-hold -p PORT -i IDLE -s SLOWLORIS -d SECONDS\n"); return 2;
        }
    }
    if (port <= 0 || idle < 0 || slow < 0 || idle + slow > 20000 || seconds <= 0 || seconds > 60) {
        fprintf(stderr, "conn-hold: a loopback port, at most 20,000 connections and 60 s\n");
        return 2;
    }
    struct rlimit limit;
    getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    epoll_fd = epoll_create1(0);
    int total = idle + slow;
    slots = calloc((size_t)total, sizeof(Slot));
    for (int i = 0; i < total; i++) {
        slots[i].slow = i >= idle;
        open_slot(i);
    }
    int64_t deadline = now_ns() + (int64_t)seconds * 1000000000LL;
    struct epoll_event events[256];
    char buffer[4096];
    int64_t last_sweep = 0;
    while (now_ns() < deadline) {
        int count = epoll_wait(epoll_fd, events, 256, 50);
        for (int k = 0; k < count; k++) {
            int index = (int)events[k].data.u32;
            ssize_t n = read(slots[index].fd, buffer, sizeof buffer);
            if (n > 0 && strncmp(buffer, "HTTP/1.1 408", 12) == 0) answered_408++;
            if (n > 0) continue;  // the answer; the close follows
            if (n < 0 && errno == EAGAIN) continue;
            closed_by_server++;
            reopen(index);
        }
        int64_t now = now_ns();
        if (now - last_sweep < 100000000LL) continue;  // slowloris lines, every 0.1 s
        last_sweep = now;
        for (int i = 0; i < total; i++) {
            Slot *s = &slots[i];
            if (s->fd < 0) {
                open_slot(i);
                continue;
            }
            if (!s->slow || now < s->next_line) continue;
            char line[64];
            int length = s->lines == 0 ? snprintf(line, sizeof line, "GET /v1/ping HTTP/1.1\r\nHost: x\r\n")
                                       : snprintf(line, sizeof line, "X-Slow-%d: a\r\n", s->lines);
            if (write(s->fd, line, (size_t)length) < 0 && errno != EAGAIN) {
                closed_by_server++;
                reopen(i);
                continue;
            }
            s->lines++;
            s->next_line = now + 5000000000LL;
        }
    }
    printf("ATTACK mode=hold idle=%d slowloris=%d opened=%llu closed_by_server=%llu answered_408=%llu connect_failed=%llu\n",
           idle, slow, opened, closed_by_server, answered_408, connect_failed);
    return 0;
}
