/* spin.c — runs until stopped: the target of rsp_raw.py's interrupt (Ctrl-C) test. */
volatile unsigned long spins;

int main(void)
{
    for (;;)
        spins++;
}
