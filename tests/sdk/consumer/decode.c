/* decode.c — a consumer of the installed ISA library: decodes, prints in both styles and
 * assembles a pseudo-instruction against the installed spec. Expected words are the
 * RISC-V encodings (add a0,a0,a1 = 0x00b50533; c.li a0,5 = 0x4515; addi a0,zero,5 =
 * 0x00500513). Exit 0 when every result is right. */
#include <stdio.h>
#include <string.h>

#include <xphmg/isa.h>

int main(int argc, char **argv)
{
    const char *spec_path = argc > 1 ? argv[1] : SPEC_XML;
    char err[256], text[64];
    isa_spec *s = isa_load(spec_path, err, sizeof err);
    if (!s) {
        fprintf(stderr, "decode: %s\n", err);
        return 1;
    }
    int bad = 0;
    const uint8_t add[4] = {0x33, 0x05, 0xb5, 0x00}, cli[2] = {0x15, 0x45};
    isa_decoded d;
    if (isa_decode(s, add, 4, 0, &d) != ISA_OK) bad++;
    isa_format(s, &d, text, sizeof text);
    bad += strcmp(text, "add a0,a0,a1") != 0;
    printf("%s\n", text);
    if (isa_decode(s, cli, 2, 0, &d) != ISA_OK) bad++;
    isa_format(s, &d, text, sizeof text);
    bad += strcmp(text, "c.li a0,5") != 0;
    printf("%s\n", text);
    isa_format_alias(s, &d, text, sizeof text);
    bad += strcmp(text, "li a0,5") != 0;
    printf("%s\n", text);
    if (isa_assemble(s, "li a0,5", 0, &d, err, sizeof err) != ISA_OK || d.word != 0x00500513) bad++;
    printf("li a0,5 = %08llx\n", (unsigned long long)d.word);
    isa_free(s);
    puts(bad ? "decode: FAIL" : "decode: ok");
    return bad != 0;
}
