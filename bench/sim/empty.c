/* empty.c — start-up and exit only: measures each simulator's fixed cost, which run.sh
 * subtracts from the kernels' times. */
int main(void)
{
    return 0;
}
