/* A calculator: one expression or assignment a line on stdin, answered as a REPL would. Integers and
 * decimals (doubles), + - * / % ^ (power, right-associative), unary minus, parentheses, variables
 * (x = 2 * pi), the last answer as `ans`, and functions sqrt abs floor min max. A recursive-descent
 * parser, one function per precedence level; errors name the column, and the REPL goes on. */
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const char *text, *p;
static jmp_buf fail;
static struct { char name[32]; double value; } vars[64];
static int nvars, errors, lines; /* errors and lines survive the longjmp back into main */

static void error(const char *what)
{
    printf("error at column %d: %s\n", (int)(p - text) + 1, what);
    longjmp(fail, 1);
}

static double *variable(const char *name, int create)
{
    for (int i = 0; i < nvars; i++)
        if (!strcmp(vars[i].name, name))
            return &vars[i].value;
    if (!create || nvars == 64)
        return NULL;
    snprintf(vars[nvars].name, sizeof vars[nvars].name, "%s", name);
    return &vars[nvars++].value;
}

static void skip(void)
{
    while (isspace((unsigned char)*p))
        p++;
}

static int accept(char c)
{
    skip();
    if (*p != c)
        return 0;
    p++;
    return 1;
}

static int name_at(char *out)
{
    skip();
    int n = 0;
    if (!isalpha((unsigned char)*p))
        return 0;
    while ((isalnum((unsigned char)*p) || *p == '_') && n < 31)
        out[n++] = *p++;
    out[n] = 0;
    return 1;
}

static double expression(void);

static double primary(void)
{
    char name[32];
    if (accept('(')) {
        double v = expression();
        if (!accept(')'))
            error("expected )");
        return v;
    }
    if (accept('-'))
        return -primary();
    if (name_at(name)) {
        static const char *unary[] = {"sqrt", "abs", "floor"}, *binary[] = {"min", "max"};
        for (int i = 0; i < 3; i++)
            if (!strcmp(name, unary[i])) {
                if (!accept('('))
                    error("expected ( after a function");
                double x = expression();
                if (!accept(')'))
                    error("expected )");
                return i == 0 ? sqrt(x) : i == 1 ? fabs(x) : floor(x);
            }
        for (int i = 0; i < 2; i++)
            if (!strcmp(name, binary[i])) {
                if (!accept('('))
                    error("expected ( after a function");
                double a = expression();
                if (!accept(','))
                    error("expected ,");
                double b = expression();
                if (!accept(')'))
                    error("expected )");
                return i == 0 ? fmin(a, b) : fmax(a, b);
            }
        double *v = variable(name, 0);
        if (!v)
            error("unknown variable");
        return *v;
    }
    skip();
    char *end;
    double v = strtod(p, &end);
    if (end == p)
        error("expected a number");
    p = end;
    return v;
}

static double power(void)
{
    double base = primary();
    return accept('^') ? pow(base, power()) : base;
}

static double term(void)
{
    double v = power();
    for (;;) {
        if (accept('*'))
            v *= power();
        else if (accept('/')) {
            double d = power();
            if (d == 0)
                error("division by zero");
            v /= d;
        } else if (accept('%')) {
            double d = power();
            if (d == 0)
                error("division by zero");
            v = fmod(v, d);
        } else
            return v;
    }
}

static double expression(void)
{
    double v = term();
    for (;;) {
        if (accept('+'))
            v += term();
        else if (accept('-'))
            v -= term();
        else
            return v;
    }
}

int main(void)
{
    char line[512];
    *variable("pi", 1) = 3.14159265358979323846;
    *variable("e", 1) = 2.71828182845904523536;
    double *ans = variable("ans", 1);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        text = p = line;
        skip();
        if (!*p || *p == '#')
            continue;
        printf("%s\n", line);
        lines++;
        if (setjmp(fail)) {
            errors++;
            continue;
        }
        char name[32];
        double *target = ans;
        const char *start = p;
        if (name_at(name) && accept('=')) {
            target = variable(name, 1);
            if (!target)
                error("too many variables");
        } else {
            p = start;
        }
        double v = expression();
        skip();
        if (*p)
            error("unexpected text");
        *target = *ans = v;
        printf("  = %.10g\n", v);
    }
    printf("%d lines, %d errors\n", lines, errors);
    return 0;
}
