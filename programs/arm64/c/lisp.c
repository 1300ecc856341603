/* A small Lisp: reads expressions from stdin and prints each one's value, as a REPL does. Numbers
 * (64-bit integers), symbols, lists, and the special forms quote ('x), if, define, lambda (closures
 * with lexical scope), let and begin; built-ins + - * / mod < = car cdr cons list null? and print.
 * Memory is a fixed pool of cells, never freed (a REPL session is short). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum type { NUM, SYM, PAIR, BUILTIN, CLOSURE, EMPTY };

typedef struct cell {
    enum type type;
    union {
        long num;
        const char *sym;
        struct { struct cell *car, *cdr; };
        struct cell *(*fn)(struct cell *args);
        struct { struct cell *params, *body, *env; };
    };
} cell;

static cell nil_cell = {.type = EMPTY};
#define NIL (&nil_cell)
static cell pool[500000];
static int used;
static cell *symbols = NIL, *global, *sym_t, *sym_quote, *sym_if, *sym_define, *sym_lambda, *sym_let, *sym_begin;
static int peeked = -2, errors;

static cell *make(enum type t)
{
    if (used == (int)(sizeof pool / sizeof *pool)) {
        fprintf(stderr, "lisp: out of cells\n");
        exit(3);
    }
    cell *c = &pool[used++];
    c->type = t;
    return c;
}

static cell *num(long n) { cell *c = make(NUM); c->num = n; return c; }
static cell *cons(cell *a, cell *d) { cell *c = make(PAIR); c->car = a; c->cdr = d; return c; }
#define car(c) ((c)->car)
#define cdr(c) ((c)->cdr)

/* symbols are interned: the same name is the same cell, so eq is pointer equality */
static cell *intern(const char *name)
{
    for (cell *s = symbols; s != NIL; s = cdr(s))
        if (!strcmp(car(s)->sym, name))
            return car(s);
    cell *c = make(SYM);
    c->sym = strdup(name);
    symbols = cons(c, symbols);
    return c;
}

static void error(const char *what, cell *about);
static void print(cell *c);

/* ---- reading ---- */
static int next_char(void) { int c = peeked != -2 ? peeked : getchar(); peeked = -2; return c; }
static int peek_char(void) { if (peeked == -2) peeked = getchar(); return peeked; }

static int skip_space(void)
{
    for (;;) {
        int c = peek_char();
        if (c == ';')
            while (c != '\n' && c != EOF)
                c = next_char();
        else if (isspace(c))
            next_char();
        else
            return c;
    }
}

static cell *read_expr(void);

static cell *read_list(void)
{
    if (skip_space() == ')') {
        next_char();
        return NIL;
    }
    if (peek_char() == EOF)
        error("unexpected end of input in a list", NIL);
    cell *head = read_expr();
    return cons(head, read_list());
}

static cell *read_expr(void)
{
    int c = skip_space();
    if (c == EOF)
        return NULL;
    if (c == '(') {
        next_char();
        return read_list();
    }
    if (c == '\'') {
        next_char();
        return cons(sym_quote, cons(read_expr(), NIL));
    }
    if (c == ')') {
        next_char();
        error("unexpected )", NIL);
    }
    char word[64];
    int n = 0;
    while ((c = peek_char()) != EOF && !isspace(c) && c != '(' && c != ')' && n < 63)
        word[n++] = (char)next_char();
    word[n] = 0;
    char *end;
    long v = strtol(word, &end, 10);
    return *end == 0 && (isdigit(word[0]) || (word[0] == '-' && word[1])) ? num(v) : intern(word);
}

/* ---- errors return to the top level ---- */
#include <setjmp.h>
static jmp_buf top;

static void error(const char *what, cell *about)
{
    printf("error: %s", what);
    if (about != NIL) {
        printf(": ");
        print(about);
    }
    printf("\n");
    longjmp(top, 1);
}

/* ---- evaluating ---- */
static cell *lookup(cell *sym, cell *env)
{
    for (; env != NIL; env = cdr(env))
        for (cell *frame = car(env); frame != NIL; frame = cdr(frame))
            if (car(car(frame)) == sym)
                return car(frame);
    return NULL;
}

static void define(cell *sym, cell *value, cell *env)
{
    env->car = cons(cons(sym, value), car(env));
}

static cell *eval(cell *x, cell *env);

static cell *eval_list(cell *xs, cell *env)
{
    return xs == NIL ? NIL : cons(eval(car(xs), env), eval_list(cdr(xs), env));
}

static cell *eval(cell *x, cell *env)
{
    for (;;) { /* loops instead of recursing for the tail of if, begin, let and calls */
        if (x->type == SYM) {
            cell *binding = lookup(x, env);
            if (!binding)
                error("unbound symbol", x);
            return cdr(binding);
        }
        if (x->type != PAIR)
            return x;
        cell *op = car(x), *args = cdr(x);
        if (op == sym_quote)
            return car(args);
        if (op == sym_if) {
            x = eval(car(args), env) != NIL ? car(cdr(args)) : cdr(cdr(args)) != NIL ? car(cdr(cdr(args))) : NIL;
            continue;
        }
        if (op == sym_define) {
            if (car(args)->type == PAIR) /* (define (f params...) body...) */
                define(car(car(args)), eval(cons(sym_lambda, cons(cdr(car(args)), cdr(args))), env), env);
            else
                define(car(args), eval(car(cdr(args)), env), env);
            return car(args)->type == PAIR ? car(car(args)) : car(args);
        }
        if (op == sym_lambda) {
            cell *f = make(CLOSURE);
            f->params = car(args);
            f->body = cdr(args);
            f->env = env;
            return f;
        }
        if (op == sym_let) {
            cell *frame = NIL;
            for (cell *b = car(args); b != NIL; b = cdr(b))
                frame = cons(cons(car(car(b)), eval(car(cdr(car(b))), env)), frame);
            env = cons(frame, env);
            args = cdr(args);
            op = sym_begin;
        }
        if (op == sym_begin) {
            if (args == NIL)
                return NIL;
            for (; cdr(args) != NIL; args = cdr(args))
                eval(car(args), env);
            x = car(args);
            continue;
        }
        cell *f = eval(op, env), *values = eval_list(args, env);
        if (f->type == BUILTIN)
            return f->fn(values);
        if (f->type != CLOSURE)
            error("not a function", f);
        cell *frame = NIL, *p = f->params;
        for (; p != NIL && p->type == PAIR; p = cdr(p), values = cdr(values)) {
            if (values == NIL)
                error("too few arguments for", op);
            frame = cons(cons(car(p), car(values)), frame);
        }
        if (p != NIL) /* (lambda args ...) or (lambda (a . rest) ...): the rest as a list */
            frame = cons(cons(p, values), frame);
        else if (values != NIL)
            error("too many arguments for", op);
        env = cons(frame, f->env);
        x = cons(sym_begin, f->body);
    }
}

/* ---- printing ---- */
static void print(cell *c)
{
    switch (c->type) {
    case NUM: printf("%ld", c->num); break;
    case SYM: printf("%s", c->sym); break;
    case EMPTY: printf("()"); break;
    case BUILTIN: printf("#<builtin>"); break;
    case CLOSURE: printf("#<lambda>"); break;
    case PAIR:
        printf("(");
        for (;;) {
            print(car(c));
            c = cdr(c);
            if (c == NIL)
                break;
            if (c->type != PAIR) {
                printf(" . ");
                print(c);
                break;
            }
            printf(" ");
        }
        printf(")");
        break;
    }
}

/* ---- built-ins ---- */
static long number(cell *c)
{
    if (c == NIL || c->type != NUM)
        error("not a number", c);
    return c->num;
}

static cell *add(cell *a) { long s = 0; for (; a != NIL; a = cdr(a)) s += number(car(a)); return num(s); }
static cell *mul(cell *a) { long s = 1; for (; a != NIL; a = cdr(a)) s *= number(car(a)); return num(s); }
static cell *sub(cell *a)
{
    long s = number(car(a));
    if (cdr(a) == NIL)
        return num(-s);
    for (a = cdr(a); a != NIL; a = cdr(a))
        s -= number(car(a));
    return num(s);
}
static cell *divide(cell *a)
{
    long d = number(car(cdr(a)));
    if (d == 0)
        error("division by zero", NIL);
    return num(number(car(a)) / d);
}
static cell *mod(cell *a)
{
    long d = number(car(cdr(a)));
    if (d == 0)
        error("division by zero", NIL);
    return num(number(car(a)) % d);
}
static cell *truth(int b) { return b ? sym_t : NIL; }
static cell *lt(cell *a) { return truth(number(car(a)) < number(car(cdr(a)))); }
static cell *eq(cell *a)
{
    cell *x = car(a), *y = car(cdr(a));
    return truth(x == y || (x->type == NUM && y->type == NUM && x->num == y->num));
}
static cell *pair_of(cell *a) { if (car(a)->type != PAIR) error("not a pair", car(a)); return car(a); }
static cell *b_car(cell *a) { return car(pair_of(a)); }
static cell *b_cdr(cell *a) { return cdr(pair_of(a)); }
static cell *b_cons(cell *a) { return cons(car(a), car(cdr(a))); }
static cell *b_list(cell *a) { return a; }
static cell *b_null(cell *a) { return truth(car(a) == NIL); }
static cell *b_print(cell *a) { print(car(a)); printf("\n"); return car(a); }

int main(void)
{
    sym_t = intern("t");
    sym_quote = intern("quote");
    sym_if = intern("if");
    sym_define = intern("define");
    sym_lambda = intern("lambda");
    sym_let = intern("let");
    sym_begin = intern("begin");
    global = cons(NIL, NIL);
    define(sym_t, sym_t, global);
    static const struct { const char *name; cell *(*fn)(cell *); } builtins[] = {
        {"+", add}, {"-", sub}, {"*", mul}, {"/", divide}, {"mod", mod}, {"<", lt}, {"=", eq},
        {"car", b_car}, {"cdr", b_cdr}, {"cons", b_cons}, {"list", b_list}, {"null?", b_null}, {"print", b_print}};
    for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++) {
        cell *f = make(BUILTIN);
        f->fn = builtins[i].fn;
        define(intern(builtins[i].name), f, global);
    }

    errors += setjmp(top); /* an error comes back here and the REPL goes on */
    for (;;) {
        printf("> ");
        cell *x = read_expr();
        if (!x)
            break;
        print(eval(x, global));
        printf("\n");
    }
    printf("\n%d cells used, %d errors\n", used, errors);
    return 0;
}
