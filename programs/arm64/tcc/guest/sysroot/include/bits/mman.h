#define PROT_BTI 0x10
#define PROT_MTE 0x20
