typedef unsigned long __jmp_buf[22];
