/**
 * This file has no copyright assigned and is placed in the Public Domain.
 * This file is part of the w64 mingw-runtime package.
 * No warranty is given; refer to the file DISCLAIMER within this package.
 */
#ifndef _VARARGS_H
#define _VARARGS_H

#error "TinyCC no longer implements <varargs.h>."
#error "Revise your code to use <stdarg.h>."

#endif
