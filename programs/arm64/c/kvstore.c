/* A tiny key-value store: commands on stdin, one a line, answers on stdout. Keys and values are words;
 * the table is an open-addressing hash table (FNV-1a, linear probing) that doubles when 3/4 full.
 *   SET key value   GET key   DEL key   INCR key   COUNT   KEYS (sorted)   DUMP   STATS
 * Unknown commands get "ERR". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
    char *key, *value;
    int deleted;
};

static struct entry *table;
static size_t capacity = 8, used, live;
static long probes, lookups;

static unsigned long hash(const char *s)
{
    unsigned long h = 1469598103934665603ul;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ul;
    return h;
}

/* the slot holding `key`, or the empty slot where it would go */
static struct entry *slot(const char *key)
{
    lookups++;
    size_t i = hash(key) & (capacity - 1);
    struct entry *tomb = NULL;
    for (;; i = (i + 1) & (capacity - 1)) {
        probes++;
        struct entry *e = &table[i];
        if (!e->key)
            return tomb ? tomb : e;
        if (e->deleted) {
            if (!tomb)
                tomb = e;
        } else if (!strcmp(e->key, key)) {
            return e;
        }
    }
}

static void put(char *key, char *value);

static void grow(void)
{
    struct entry *old = table;
    size_t old_capacity = capacity;
    capacity *= 2;
    table = calloc(capacity, sizeof *table);
    used = live = 0;
    for (size_t i = 0; i < old_capacity; i++)
        if (old[i].key && !old[i].deleted)
            put(old[i].key, old[i].value);
        else
            free(old[i].key);
    free(old);
}

static void put(char *key, char *value)
{
    struct entry *e = slot(key);
    if (e->key && !e->deleted) {
        free(key);
        free(e->value);
        e->value = value;
        return;
    }
    if (!e->key)
        used++;
    free(e->key);
    *e = (struct entry){key, value, 0};
    live++;
    if (used * 4 >= capacity * 3)
        grow();
}

static int by_key(const void *a, const void *b)
{
    return strcmp((*(struct entry *const *)a)->key, (*(struct entry *const *)b)->key);
}

static struct entry **sorted(void)
{
    struct entry **list = malloc((live + 1) * sizeof *list);
    size_t n = 0;
    for (size_t i = 0; i < capacity; i++)
        if (table[i].key && !table[i].deleted)
            list[n++] = &table[i];
    qsort(list, n, sizeof *list, by_key);
    return list;
}

int main(void)
{
    char line[1024];
    table = calloc(capacity, sizeof *table);
    while (fgets(line, sizeof line, stdin)) {
        char *command = strtok(line, " \t\r\n"), *key = strtok(NULL, " \t\r\n"), *value = strtok(NULL, " \t\r\n");
        if (!command || command[0] == '#')
            continue;
        if (!strcmp(command, "SET") && key && value) {
            put(strdup(key), strdup(value));
            printf("OK\n");
        } else if (!strcmp(command, "GET") && key) {
            struct entry *e = slot(key);
            printf("%s\n", e->key && !e->deleted ? e->value : "(nil)");
        } else if (!strcmp(command, "DEL") && key) {
            struct entry *e = slot(key);
            int found = e->key && !e->deleted;
            if (found) {
                e->deleted = 1;
                free(e->value);
                e->value = NULL;
                live--;
            }
            printf("%d\n", found);
        } else if (!strcmp(command, "INCR") && key) {
            struct entry *e = slot(key);
            long n = e->key && !e->deleted ? atol(e->value) + 1 : 1;
            char number[32];
            snprintf(number, sizeof number, "%ld", n);
            put(strdup(key), strdup(number));
            printf("%ld\n", n);
        } else if (!strcmp(command, "COUNT")) {
            printf("%zu\n", live);
        } else if (!strcmp(command, "KEYS") || !strcmp(command, "DUMP")) {
            struct entry **list = sorted();
            for (size_t i = 0; i < live; i++)
                if (command[0] == 'K')
                    printf("%s%s", i ? " " : "", list[i]->key);
                else
                    printf("%s = %s\n", list[i]->key, list[i]->value);
            if (command[0] == 'K')
                printf("\n");
            free(list);
        } else if (!strcmp(command, "STATS")) {
            printf("%zu keys in %zu slots, %.2f probes per lookup\n", live, capacity,
                   lookups ? (double)probes / lookups : 0.0);
        } else {
            printf("ERR unknown command or missing argument: %s\n", command);
        }
    }
    return 0;
}
