#define IPC_STAT 2
