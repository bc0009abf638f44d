#ifndef SWITCHBOARD_CZLIB_SHIM_H
#define SWITCHBOARD_CZLIB_SHIM_H
#include <zlib.h>
#endif
