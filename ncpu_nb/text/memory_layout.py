"""Where a text program's strings live in the nCPU's data memory (bytes, zero-terminated).

The input starts at `INPUT`; a two-stage program keeps its intermediate string at `MIDDLE`; the
result is at `OUTPUT`. A stage can at most double a string's length (doubling, run-length encoding
of lone characters), so `MIDDLE` holds twice the longest input and `OUTPUT` four times (up to
0x5000). Program data (a Vigenère key) sits below `INPUT`; the stack is at the top of memory.
"""
MAX_INPUT = 2047  # bytes of input text
INPUT = 0x1000
MIDDLE = 0x2000
OUTPUT = 0x3000
MEMORY = 0x10000  # data memory of the CPU that runs a text program
