#ifndef SWITCHBOARD_CRDKAFKA_SHIM_H
#define SWITCHBOARD_CRDKAFKA_SHIM_H
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#endif
