"""The exercises of chapter 32: a tiny network inside the machine (a CGI script BusyBox httpd runs, and the
errors a guest meets when it reaches for what is not there)."""
from __future__ import annotations

from ncpu_nb.exercises.checker import Row, exercise, expect, text

CGI_ANSWER = "6 * 7 = 42"


@exercise("32", "cgi_script", f"A CGI shell script for BusyBox httpd whose page is the text {CGI_ANSWER!r}")
def _(answer):
    from ncpu_nb.arm64.session import Session

    script = text(answer, "a shell script, starting #!/bin/sh")
    session = Session()
    session.write_file("/tmp/answer.cgi", script)
    setup = session.run("mkdir -p /www/cgi-bin && mv /tmp/answer.cgi /www/cgi-bin/answer && "
                        "chmod +x /www/cgi-bin/answer && httpd -p 8080 -h /www")
    page = session.run("wget -q -O - http://127.0.0.1:8080/cgi-bin/answer", timeout=60)
    rows = [expect("httpd started", 0, setup.status),
            expect("the page wget fetched", CGI_ANSWER, page.stdout.strip(), show=str)]
    if not script.startswith("#!"):
        rows.append(Row("a #! line", False, "httpd runs the file as a program: its first line names the "
                        "interpreter, #!/bin/sh"))
    elif page.status != 0:
        rows.append(Row("a header first", False, "a CGI program prints its headers (Content-Type: text/plain), "
                        "then an empty line, then the page"))
    return rows


@exercise("32", "connect_errors", "The errors a guest's connect meets: nothing listening on its loopback, "
          "and an address outside the machine (two errno names)")
def _(answer):
    import ncpu_nb
    from ncpu_nb.arm64.syscall_log import ERRNO

    got = answer if isinstance(answer, (tuple, list)) else (answer,)
    got = tuple(str(name).strip().upper() for name in got)
    results = []
    for address in ("127.0.0.1", "192.0.2.7"):  # the second is TEST-NET-1: no machine of its own
        run = ncpu_nb.busybox("nc", address, "7777", stdin="", timeout=60)
        connects = [call.result for call in run.machine.syscall_log() if call.name == "connect"]
        results.append(ERRNO.get(-connects[-1], str(connects[-1])) if connects else "no connect")
    return [expect("nothing listening on 127.0.0.1:7777", results[0], got[0] if got else "", show=str),
            expect("192.0.2.7, outside the machine", results[1], got[1] if len(got) > 1 else "", show=str)]
