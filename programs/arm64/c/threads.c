/*
 * threads.c - POSIX threads on AArch64.
 *
 * Exercises: clone(CLONE_VM|CLONE_THREAD|CLONE_SETTLS|...) via
 * pthread_create, per-thread TLS (TPIDR_EL0, __thread variables), a
 * pthread_mutex (futex + exclusive/atomic instructions), C11-style atomics
 * (__atomic builtins: LDAXR/STLXR loops, or LSE if available), thread return
 * values, pthread_join (futex wait on thread exit / CLONE_CHILD_CLEARTID).
 *
 * Two threads each add 1 to a mutex-protected counter ITER times, and also
 * do the same on an atomic counter without the mutex. Each thread counts in a
 * __thread variable too and returns that count. Only the main thread prints,
 * after both joins, so output is deterministic.
 * Exit status: 0 if both totals are 2*ITER and TLS counts are right, else 1.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define ITER 100000L

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;        /* protected by lock */
static long atomic_counter; /* updated only with __atomic builtins */
static __thread long tls_count = 1000; /* each thread starts from 1000 */

struct arg {
    int id;
    long tls_final;
};

static void *worker(void *p)
{
    struct arg *a = p;
    for (long i = 0; i < ITER; i++) {
        pthread_mutex_lock(&lock);
        counter++;
        pthread_mutex_unlock(&lock);
        __atomic_fetch_add(&atomic_counter, 1, __ATOMIC_SEQ_CST);
        tls_count++;
    }
    a->tls_final = tls_count;
    return (void *)(intptr_t)(a->id * 10 + 7);
}

int main(void)
{
    pthread_t t[2];
    struct arg args[2] = {{1, 0}, {2, 0}};
    int failures = 0;

    tls_count = 5; /* main thread's copy; must not be seen by the workers */
    for (int i = 0; i < 2; i++) {
        int rc = pthread_create(&t[i], NULL, worker, &args[i]);
        printf("pthread_create thread %d: rc=%d\n", args[i].id, rc);
        if (rc != 0)
            return 1;
    }
    for (int i = 0; i < 2; i++) {
        void *ret = NULL;
        int rc = pthread_join(t[i], &ret);
        printf("pthread_join thread %d: rc=%d returned %ld tls_count=%ld\n",
               args[i].id, rc, (long)(intptr_t)ret, args[i].tls_final);
        if (rc != 0 || (intptr_t)ret != args[i].id * 10 + 7 ||
            args[i].tls_final != 1000 + ITER)
            failures++;
    }
    printf("mutex counter = %ld (expected %ld)\n", counter, 2 * ITER);
    printf("atomic counter = %ld (expected %ld)\n", atomic_counter, 2 * ITER);
    printf("main thread tls_count = %ld (expected 5)\n", tls_count);
    if (counter != 2 * ITER)
        failures++;
    if (atomic_counter != 2 * ITER)
        failures++;
    if (tls_count != 5)
        failures++;
    printf("%s (%d failures)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
}
