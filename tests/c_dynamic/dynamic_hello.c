/* A dynamically linked test program for the Metal machine's loader: started by the dynamic loader
 * its PT_INTERP names, it prints its arguments and what the auxiliary vector says, uses the heap and
 * thread-local storage in a second thread, and loads libm at run time with dlopen. Built with
 * aarch64-linux-gnu-gcc (not -static) and run beside qemu-aarch64 -L on the same sysroot. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

static __thread int counter = 40;
extern char __executable_start;

static void *worker(void *arg) {
    counter += *(int *)arg;
    return (void *)(long)counter;
}

static int count_objects(struct dl_phdr_info *info, size_t size, void *data) {
    (void)info, (void)size;
    ++*(int *)data;
    return 0;
}

int main(int argc, char **argv) {
    for (int i = 0; i < argc; i++) printf("argv[%d] = %s\n", i, argv[i]);
    const ElfW(Phdr) *phdr = (const ElfW(Phdr) *)getauxval(AT_PHDR);
    printf("AT_PHENT %lu, AT_PHNUM matches the headers: %d\n", getauxval(AT_PHENT),
           phdr != NULL && getauxval(AT_PHNUM) > 0 && phdr[0].p_type == PT_PHDR);
    printf("AT_BASE is a loaded ELF file: %d\n", memcmp((void *)getauxval(AT_BASE), "\177ELF", 4) == 0);
    printf("AT_ENTRY lies in the executable: %d\n", getauxval(AT_ENTRY) > (unsigned long)&__executable_start);
    const char *execfn = (const char *)getauxval(AT_EXECFN);
    printf("AT_EXECFN names this program: %d\n", strstr(execfn, "dynamic_hello") != NULL);
    char *heap = malloc(1 << 20);
    strcpy(heap + 12345, "heap works");
    puts(heap + 12345);
    free(heap);
    pthread_t t;
    int add = 2;
    void *result;
    pthread_create(&t, NULL, worker, &add);
    pthread_join(t, &result);
    printf("thread-local: main %d, thread %ld\n", counter, (long)result);
    void *libm = dlopen("libm.so.6", RTLD_NOW);
    if (libm == NULL) {
        printf("dlopen failed: %s\n", dlerror());
        return 1;
    }
    double (*cosine)(double) = (double (*)(double))dlsym(libm, "cos");
    printf("cos(0.5) = %.12f from dlopen'd libm\n", cosine(0.5));
    int objects = 0;
    dl_iterate_phdr(count_objects, &objects);
    printf("loaded objects: %d\n", objects);
    dlclose(libm);
    return 42;
}
