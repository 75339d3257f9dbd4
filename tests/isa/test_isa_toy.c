/* test_isa_toy.c — the ISA library on tests/isa/fixtures/toy.xml, a made-up 16/32-bit
 * ISA (not RISC-V). Every expected word below was computed by hand from the field
 * layout in the fixture (comments show the arithmetic), never by the library.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "xphmg/isa.h"

#ifndef TOY_XML
#error "TOY_XML must name the fixture"
#endif

static isa_spec *toy;
static char *toy_text; /* the fixture, for the error tests that edit it */
static size_t toy_len;

static int setup(void **st)
{
    (void)st;
    char err[256];
    toy = isa_load(TOY_XML, err, sizeof err);
    if (!toy) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    FILE *f = fopen(TOY_XML, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    toy_len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    toy_text = malloc(toy_len + 1);
    if (fread(toy_text, 1, toy_len, f) != toy_len) return -1;
    toy_text[toy_len] = 0;
    fclose(f);
    return 0;
}

static int teardown(void **st)
{
    (void)st;
    isa_free(toy);
    free(toy_text);
    return 0;
}

/* ---- model ----------------------------------------------------------------- */

static void test_model(void **st)
{
    (void)st;
    assert_string_equal(isa_arch_name(toy), "TOY");
    assert_int_equal(isa_arch_id(toy), 42);
    assert_string_equal(isa_schema_version(toy), "1.1.1");
    assert_int_equal(isa_instruction_count(toy), 12);
    assert_int_equal(isa_encoding_count(toy), 4);
    /* isa_encoding_at is in Order */
    assert_string_equal(isa_encoding_at(toy, 0)->name, "SHORT");
    assert_string_equal(isa_encoding_at(toy, 3)->name, "LONGX");
    const isa_encoding *lx = isa_find_encoding(toy, "LONGX");
    assert_non_null(lx);
    assert_int_equal(lx->identifier_count, 2);
    assert_int_equal(lx->mask, 0xE000);
    assert_int_equal(lx->op_field, -1);
    assert_int_equal(lx->condition_count, 1);
    assert_string_equal(lx->conditions[0].name, "has_lit");
    assert_string_equal(lx->conditions[0].expression, "literal follows"); /* AMD spelling */
    const isa_instruction *lit = isa_find_instruction(toy, "lit");
    assert_string_equal(lit->encodings[0].condition, "has_lit"); /* description spelling */
    const isa_instruction *addi = isa_find_instruction(toy, "addi");
    assert_non_null(addi);
    assert_int_equal(addi->encodings[0].opcode, 1); /* Radix="2" 001 */
    assert_string_equal(addi->group, "ALU");
    assert_string_equal(addi->subgroup, "ARITH"); /* FunctionalSubgroups wrapper */
    assert_string_equal(addi->encodings[0].operands[0].type->name, "OPR_REG"); /* OperantType */
    const isa_instruction *bnz = isa_find_instruction(toy, "bnz");
    assert_true(bnz->is_branch && bnz->is_conditional_branch && !bnz->is_indirect_branch);
    assert_true(isa_find_instruction(toy, "halt")->is_program_terminator);
    assert_null(isa_find_instruction(toy, "frob"));
    const isa_operand_type *rm = isa_find_operand_type(toy, "OPR_RM");
    assert_int_equal(rm->predef_count, 3); /* OperandPredefinedValue spelling */
    assert_string_equal(isa_predef_by_value(rm, 7)->name, "dyn");
    assert_null(isa_predef_by_value(rm, 3));
    assert_true(isa_find_data_format(toy, "FMT_SINT")->is_signed);
    assert_false(isa_find_data_format(toy, "FMT_UINT")->is_signed);
    assert_int_equal(isa_register_count(toy), 1);
    const isa_register *r = isa_find_register_addr(toy, 0x7C0);
    assert_non_null(r);
    assert_string_equal(r->name, "status");
    assert_int_equal(r->reset_value, 0x10);
    assert_int_equal(r->fields[0].bit_count, 2);
    assert_int_equal(isa_group_count(toy), 3);
}

/* ---- fields (X-05) -------------------------------------------------------------- */

static void test_fields(void **st)
{
    (void)st;
    const isa_encoding *s = isa_find_encoding(toy, "SHORT");
    const isa_field *imm = &s->fields[2];
    assert_string_equal(imm->name, "IMM");
    assert_int_equal(imm->width, 10); /* 5 + 4 + 1 padding bit */
    /* imm = 0b10110_0111_0 = 0x2CE: word bits 8:4 = 10110, 3:0 = 0111 -> 0x167 */
    assert_int_equal(isa_field_extract(imm, 0x167), 0x2CE);
    uint64_t w = 0xF000;
    assert_int_equal(isa_field_insert(imm, 0x2CE, &w), ISA_OK);
    assert_int_equal(w, 0xF167);
    w = 0;
    assert_int_equal(isa_field_insert(imm, 0x2CF, &w), ISA_ERR_RANGE); /* padding bit is 0 */
    assert_int_equal(isa_field_insert(imm, 0x400, &w), ISA_ERR_RANGE); /* 11 bits */
    assert_int_equal(w, 0);
    const isa_encoding *l = isa_find_encoding(toy, "LONG");
    const isa_field *joff = &l->fields[5];
    assert_string_equal(joff->name, "JOFF");
    /* off[4:2] = word[4:2], off[20:5] = word[31:16]; word 0xABCD0014: 0xABCD << 5 | 5 << 2 */
    assert_int_equal(isa_field_extract(joff, 0xABCD0014), (0xABCDu << 5) | (5u << 2));
}

/* ---- decoding ------------------------------------------------------------------ */

static void expect_text(uint64_t word, unsigned bits, uint64_t addr, const char *text)
{
    isa_decoded d;
    char buf[128];
    assert_int_equal(isa_decode_word(toy, word, bits, addr, &d), ISA_OK);
    int n = isa_format(toy, &d, buf, sizeof buf);
    assert_string_equal(buf, text);
    assert_int_equal(n, (int)strlen(text));
    /* without the spec (template interpreted, not precompiled): the same text */
    n = isa_format(NULL, &d, buf, sizeof buf);
    assert_string_equal(buf, text);
    assert_int_equal(n, (int)strlen(text));
}

static void test_decode(void **st)
{
    (void)st;
    /* addi r3,-6: OP=1 <<12 = 0x1000, RD=3 <<9 = 0x600; -6 in 10 bits = 1018 = 0b11111_1101_0:
     * bits 8:4 = 11111 -> 0x1F0, bits 3:0 = 1101 -> 0xD; total 0x17FD */
    expect_text(0x17FD, 16, 0, "addi r3, -6"); /* the fixture's template has a blank */
    /* bnz r1 at 0x100, offset +20 = 0b00000_1010_0: RD=1 -> 0x200, bits 3:0 = 0xA */
    expect_text(0x020A, 16, 0x100, "bnz r1,114");
    /* OP=7 whatever the rest */
    expect_text(0x7123, 16, 0, "nop");
    /* ld r2,-8(r5): 0x8000 | 3<<8 | 2<<5 | 5<<2 = 0x8354, IMM16 = 0xFFF8 */
    expect_text(0xFFF88354, 32, 0, "ld r2,-8(r5)");
    /* li r1,0x1234: 0x8000 | 5<<8 | 1<<5 = 0x8520; hex display, default syntax */
    expect_text(0x12348520, 32, 0, "li r1,0x1234");
    /* lhi r1,-2: 6<<8 | 1<<5 = 0x8620, IMM16 = 0xFFFE; hex modulo 2^20 of FMT_S20;
     * RD's format FMT_SINT is signed but a register value is never sign-extended */
    expect_text(0xFFFE8620, 32, 0, "lhi r1,0xffffe");
    expect_text(0x7FFF86E0, 32, 0, "lhi r7,0x7fff");
    /* jmp at 0x1000 to 0xff0 (-16): -16 in 21 bits = 0x1FFFF0; [4:2] = 4 -> 0x10,
     * [20:5] = 0xFFFF -> word 31:16; 0x8000 | 9<<8 = 0x8900 */
    expect_text(0xFFFF8910, 32, 0x1000, "jmp ff0");
    /* fop r1,r2 with RM = 7 = default: group left out; RM=1 printed by name */
    expect_text(0x00078C28, 32, 0, "fop r1,r2");
    expect_text(0x00018C28, 32, 0, "fop r1,r2,rtz");
    /* RM = 3: no predefined name, printed as a number */
    expect_text(0x00038C28, 32, 0, "fop r1,r2,3");
    /* push: the not-encoded sp is shown, the implicit flags are not; 20<<8 | 3<<2 */
    expect_text(0x0000940C, 32, 0, "push sp,r3");
    expect_text(0x0000BF00, 32, 0, "halt");
    /* lit: both identifiers of LONGX (bits 15:13 = 110 and 111); udec */
    expect_text(0xFFFFC080, 32, 0, "lit r4,65535");
    expect_text(0xFFFFE080, 32, 0, "lit r4,65535");
}

static void test_decode_details(void **st)
{
    (void)st;
    isa_decoded d;
    assert_int_equal(isa_decode_word(toy, 0x020A, 16, 0x100, &d), ISA_OK);
    assert_string_equal(d.insn->name, "bnz");
    assert_int_equal(d.length, 2);
    assert_true(d.has_target);
    assert_int_equal(d.target, 0x114);
    assert_int_equal(d.operand_count, 2);
    assert_string_equal(d.operands[0].name, "r1");
    assert_int_equal(d.operands[1].value, 20);
    /* r7 and its alias sp share value 7: the first in document order is printed */
    assert_int_equal(isa_decode_word(toy, 0x1E02, 16, 0, &d), ISA_OK); /* addi r7,4 */
    assert_string_equal(d.operands[0].name, "r7");
    /* push: not-encoded operand takes the predefined value */
    assert_int_equal(isa_decode_word(toy, 0x940C, 32, 0, &d), ISA_OK);
    assert_int_equal(d.operand_count, 3);
    assert_int_equal(d.operands[0].raw, 7);
    assert_null(d.operands[0].operand->field);
    assert_true(d.operands[2].operand->implicit);
    /* byte buffer, little-endian: fd 17 = 0x17FD */
    const uint8_t buf[] = {0xfd, 0x17, 0x54, 0x83, 0xf8, 0xff};
    assert_int_equal(isa_decode(toy, buf, sizeof buf, 0, &d), ISA_OK);
    assert_string_equal(d.insn->name, "addi");
    assert_int_equal(d.length, 2);
    assert_int_equal(isa_decode(toy, buf + 2, 4, 2, &d), ISA_OK);
    assert_string_equal(d.insn->name, "ld");
    assert_int_equal(d.length, 4);
    assert_int_equal(d.word, 0xFFF88354);
}

/* a rejected match continues with the next encoding in Order */
static void test_constraint(void **st)
{
    (void)st;
    /* 0x1005: SHORT, OP = 1 (addi) but RD = 0 is excluded -> SHORT_ALT mark, IMMU = 5 */
    expect_text(0x1005, 16, 0, "mark 0x5");
}

static void test_truncated_unknown(void **st)
{
    (void)st;
    isa_decoded d;
    const uint8_t ld[] = {0x54, 0x83, 0xf8, 0xff};
    assert_int_equal(isa_decode(toy, ld, 2, 0, &d), ISA_ERR_TRUNCATED); /* bit 15 = 1: 32-bit */
    assert_int_equal(isa_decode(toy, ld, 3, 0, &d), ISA_ERR_TRUNCATED);
    assert_int_equal(isa_decode(toy, ld, 1, 0, &d), ISA_ERR_TRUNCATED);
    assert_int_equal(isa_decode(toy, ld, 0, 0, &d), ISA_ERR_TRUNCATED);
    assert_null(d.insn);
    /* LONG with OP = 2: no instruction; 16-bit OP = 2: none either */
    assert_int_equal(isa_decode_word(toy, 0x00008200, 32, 0, &d), ISA_ERR_UNKNOWN);
    assert_int_equal(isa_decode_word(toy, 0x2000, 16, 0, &d), ISA_ERR_UNKNOWN);
    const uint8_t u[] = {0x00, 0x20};
    assert_int_equal(isa_decode(toy, u, 2, 0, &d), ISA_ERR_UNKNOWN);
    assert_int_equal(isa_decode_word(toy, 0, 65, 0, &d), ISA_ERR_ARG);
    assert_int_equal(isa_decode(NULL, u, 2, 0, &d), ISA_ERR_ARG);
}

/* ---- assembling ------------------------------------------------------------------ */

static void expect_asm(const char *text, uint64_t addr, uint64_t word)
{
    isa_decoded d;
    char err[256];
    isa_status s = isa_assemble(toy, text, addr, &d, err, sizeof err);
    if (s != ISA_OK) fail_msg("\"%s\": %s: %s", text, isa_status_str(s), err);
    assert_int_equal(d.word, word);
}

static void expect_asm_err(const char *text, isa_status want)
{
    isa_decoded d;
    char err[256];
    isa_status s = isa_assemble(toy, text, 0, &d, err, sizeof err);
    if (s != want) fail_msg("\"%s\": got %s (%s)", text, isa_status_str(s), err);
    assert_true(err[0] != 0);
}

static void test_assemble(void **st)
{
    (void)st;
    expect_asm("addi r3,-6", 0, 0x17FD);
    expect_asm("  addi   r3 ,  -6  ", 0, 0x17FD);
    expect_asm("addi r3,-0x6", 0, 0x17FD);
    expect_asm("addi r3,510", 0, 0x1000 | 0x600 | 0xFF); /* 510 = 0b01111_1111_0 */
    expect_asm("bnz r1,114", 0x100, 0x020A);
    expect_asm("bnz r1,0x114", 0x100, 0x020A);
    expect_asm("bnz r1,.+20", 0x100, 0x020A);
    expect_asm("bnz r1,114 <loop+0x4>", 0x100, 0x020A); /* objdump's symbol is ignored */
    expect_asm("nop", 0, 0x7000);
    expect_asm("mark 0x1ff", 0, 0x11FF);
    expect_asm("ld r2,-8(r5)", 0, 0xFFF88354);
    expect_asm("ld r2, -8 ( r5 )", 0, 0xFFF88354);
    expect_asm("li r1,0x1234", 0, 0x12348520);
    expect_asm("li r1,4660", 0, 0x12348520);
    expect_asm("lhi r1,0xffffe", 0, 0xFFFE8620); /* 20-bit two's complement: -2 */
    expect_asm("lhi r1,-2", 0, 0xFFFE8620);
    expect_asm("lhi r1,-0x2", 0, 0xFFFE8620);
    expect_asm("jmp ff0", 0x1000, 0xFFFF8910);
    expect_asm("fop r1,r2", 0, 0x00078C28); /* optional group filled with DefaultValue 7 */
    expect_asm("fop r1,r2,rtz", 0, 0x00018C28);
    expect_asm("fop r1,r2,3", 0, 0x00038C28);
    expect_asm("push sp,r3", 0, 0x0000940C);
    expect_asm("halt   # stop here", 0, 0x0000BF00);
    expect_asm("lit r4,65535", 0, 0xFFFFC080); /* first identifier */
    expect_asm("addi sp,2", 0, 0x1E01);        /* alias accepted on input: r7; 2 -> bits 3:0 = 1 */
}

static void test_assemble_errors(void **st)
{
    (void)st;
    expect_asm_err("frob r1", ISA_ERR_UNKNOWN);
    expect_asm_err("", ISA_ERR_SYNTAX);
    expect_asm_err("addi r3,-7", ISA_ERR_RANGE);  /* odd: padding bit */
    expect_asm_err("addi r3,512", ISA_ERR_RANGE); /* 10-bit signed max 511 */
    expect_asm_err("addi r3,-514", ISA_ERR_RANGE);
    expect_asm_err("addi r0,4", ISA_ERR_RANGE); /* constraint RD != 0 */
    expect_asm_err("ld r2,-8", ISA_ERR_SYNTAX);
    expect_asm_err("ld r2,-8(r5) junk", ISA_ERR_SYNTAX);
    expect_asm_err("li r9,1", ISA_ERR_SYNTAX);
    expect_asm_err("li r1,0x10000", ISA_ERR_RANGE);
    expect_asm_err("li r1,-1", ISA_ERR_RANGE);
    expect_asm_err("lhi r1,0xfffe", ISA_ERR_RANGE);   /* 65534 does not fit 16 signed bits */
    expect_asm_err("lhi r1,0x100000", ISA_ERR_RANGE); /* beyond 20 bits: not wrapped */
    expect_asm_err("push r1,r3", ISA_ERR_SYNTAX);
    expect_asm_err("push 6,r3", ISA_ERR_RANGE);
    expect_asm_err("bnz r1,.+1", ISA_ERR_RANGE);
    expect_asm_err("halt r1", ISA_ERR_SYNTAX);
    expect_asm_err("li r1,99999999999999999999999", ISA_ERR_SYNTAX);
}

/* aliases print when their conditions hold (first in document order) and
 * assemble back; assembler-only aliases never print. */
static void expect_alias_text(uint32_t word, const char *with, const char *without)
{
    uint8_t b[4] = {(uint8_t)word, (uint8_t)(word >> 8), (uint8_t)(word >> 16),
                    (uint8_t)(word >> 24)};
    isa_decoded d;
    char t[64];
    assert_int_equal(isa_decode(toy, b, 4, 0, &d), ISA_OK);
    isa_format_alias(toy, &d, t, sizeof t);
    assert_string_equal(t, with);
    isa_format(toy, &d, t, sizeof t);
    assert_string_equal(t, without);
}

static void test_aliases(void **st)
{
    (void)st;
    assert_int_equal(isa_alias_count(toy), 5);
    const isa_alias *a = isa_alias_at(toy, 1);
    assert_string_equal(a->name, "ldself");
    assert_int_equal(a->conditions[0].test, ISA_ALIAS_SAME);
    assert_false(isa_alias_at(toy, 3)->disassemble);
    /* LONG: ENCODING=2 [15:14], OP [13:8], RD [7:5], RS [4:2], IMM16 [31:16] */
    expect_alias_text(0x00008354, "ldz r2,(r5)", "ld r2,0(r5)");   /* 0x8300|2<<5|5<<2 */
    expect_alias_text(0x0004836C, "ldself r3,4", "ld r3,4(r3)");   /* 0x8300|3<<5|3<<2 */
    expect_alias_text(0x0000836C, "ldz r3,(r3)", "ld r3,0(r3)");   /* both hold: first */
    expect_alias_text(0xFFF88354, "ld r2,-8(r5)", "ld r2,-8(r5)"); /* none holds */
    expect_alias_text(0x00008520, "clr r1", "li r1,0x0");          /* 0x8500|1<<5 */
    expect_alias_text(0x00058520, "li r1,0x5", "li r1,0x5");       /* setnz: assembler only */
    expect_asm("ldz r2,(r5)", 0, 0x00008354);
    expect_asm("ldself r3,4", 0, 0x0004836C); /* RS copied from RD */
    expect_asm("clr r1", 0, 0x00008520);
    expect_asm("setnz r1,5", 0, 0x00058520);
    expect_asm_err("setnz r1,0", ISA_ERR_RANGE); /* NotValue */
    expect_asm_err("li0 r1,3", ISA_ERR_RANGE);   /* the text contradicts Value */
    expect_asm_err("ldz r2,4(r5)", ISA_ERR_SYNTAX);
    expect_asm_err("clr", ISA_ERR_SYNTAX);
}

/* the reference disassembler's view changes printing only, never decoding. */
static void expect_reference(uint32_t word, bool data, const char *arch, const char *ref)
{
    uint8_t b[4] = {(uint8_t)word, (uint8_t)(word >> 8), (uint8_t)(word >> 16),
                    (uint8_t)(word >> 24)};
    isa_decoded d;
    char t[64];
    assert_int_equal(isa_decode(toy, b, 4, 0, &d), ISA_OK);
    assert_int_equal(isa_reference_prints_data(toy, &d), data);
    isa_format(toy, &d, t, sizeof t);
    assert_string_equal(t, arch);
    isa_format_reference(toy, &d, false, t, sizeof t);
    assert_string_equal(t, ref);
    isa_format_reference(toy, &d, true, t, sizeof t);
    assert_string_equal(t, ref); /* fop has no alias */
}

static void test_reference(void **st)
{
    (void)st;
    /* fop (LONG): RS [4:2], RM [18:16]; the reference decodes LONG only with RS = 0 */
    expect_reference(0x00018C28, true, "fop r1,r2,rtz", "fop r1,r2,rtz");
    expect_reference(0x00018C20, false, "fop r1,r0,rtz", "fop r1,r0,rtz");
    expect_reference(0x00058C20, false, "fop r1,r0,5", "fop r1,r0,unknown"); /* RM 5: no name */
    expect_reference(0x00078C20, false, "fop r1,r0", "fop r1,r0");           /* dyn: default */
    /* aliases in the reference's text */
    uint8_t b[4] = {0x20, 0x85, 0, 0}; /* li r1,0 = clr r1 */
    isa_decoded d;
    char t[64];
    assert_int_equal(isa_decode(toy, b, 4, 0, &d), ISA_OK);
    isa_format_reference(toy, &d, true, t, sizeof t);
    assert_string_equal(t, "clr r1");
    assert_false(isa_reference_prints_data(toy, NULL));
}

static void test_encode(void **st)
{
    (void)st;
    const isa_instruction *ld = isa_find_instruction(toy, "ld");
    uint64_t raw[3] = {2, 0xFFF8, 5}, w = 0;
    assert_int_equal(isa_encode(toy, ld, NULL, raw, 3, &w), ISA_OK);
    assert_int_equal(w, 0xFFF88354);
    raw[2] = 8; /* RS is 3 bits */
    assert_int_equal(isa_encode(toy, ld, NULL, raw, 3, &w), ISA_ERR_RANGE);
    const isa_instruction *fop = isa_find_instruction(toy, "fop");
    uint64_t r2[2] = {1, 2}; /* RM left out: DefaultValue 7 */
    assert_int_equal(isa_encode(toy, fop, NULL, r2, 2, &w), ISA_OK);
    assert_int_equal(w, 0x00078C28);
    const isa_instruction *addi = isa_find_instruction(toy, "addi");
    uint64_t r3[2] = {0, 4};
    assert_int_equal(isa_encode(toy, addi, NULL, r3, 2, &w), ISA_ERR_RANGE); /* constraint */
    assert_int_equal(isa_encode(toy, addi, &fop->encodings[0], r3, 2, &w), ISA_ERR_ARG);
    assert_int_equal(isa_encode(NULL, addi, NULL, r3, 2, &w), ISA_ERR_ARG);
}

static void test_format_small_buffer(void **st)
{
    (void)st;
    isa_decoded d;
    char buf[6];
    assert_int_equal(isa_decode_word(toy, 0xFFF88354, 32, 0, &d), ISA_OK);
    assert_int_equal(isa_format(toy, &d, buf, sizeof buf), 12); /* "ld r2,-8(r5)" */
    assert_string_equal(buf, "ld r2");
    assert_int_equal(isa_format(toy, &d, NULL, 0), 12);
}

/* ---- loader errors --------------------------------------------------------------- */

/* 1-based line of the first occurrence of needle in the fixture. */
static long line_of(const char *needle)
{
    const char *p = strstr(toy_text, needle);
    assert_non_null(p);
    long line = 1;
    for (const char *q = toy_text; q < p; q++)
        line += *q == '\n';
    return line;
}

/* Loads the fixture with the first `from` (after `anchor`, if given) replaced by `to`;
 * checks the status and that the message is "toy.xml:LINE: ...". */
static void expect_load_err(const char *anchor, const char *from, const char *to, isa_status want,
                            long line, const char *fragment)
{
    const char *base = anchor ? strstr(toy_text, anchor) : toy_text;
    assert_non_null(base);
    const char *p = strstr(base, from);
    assert_non_null(p);
    size_t off = (size_t)(p - toy_text), fl = strlen(from), tl = strlen(to);
    char *x = malloc(toy_len - fl + tl + 1);
    memcpy(x, toy_text, off);
    memcpy(x + off, to, tl);
    memcpy(x + off + tl, p + fl, toy_len - off - fl + 1);
    char err[512];
    isa_spec *s = NULL;
    isa_status got = isa_open_memory(x, strlen(x), "toy.xml", &s, err, sizeof err);
    free(x);
    if (got != want) fail_msg("%s -> %s: got %s (%s)", from, to, isa_status_str(got), err);
    assert_null(s);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "toy.xml:%ld: ", line);
    if (strncmp(err, prefix, strlen(prefix)))
        fail_msg("message \"%s\" does not start with \"%s\"", err, prefix);
    if (fragment && !strstr(err, fragment)) fail_msg("message \"%s\" lacks \"%s\"", err, fragment);
}

static void test_load_not_xml(void **st)
{
    (void)st;
    char err[256];
    isa_spec *s = NULL;
    assert_int_equal(isa_open_memory("hello", 5, "junk.xml", &s, err, sizeof err), ISA_ERR_XML);
    assert_null(s);
    assert_true(strncmp(err, "junk.xml:1: ", 12) == 0);
    /* truncated in the middle of the file: the error is at or before the end */
    size_t cut = toy_len / 2;
    assert_int_equal(isa_open_memory(toy_text, cut, "toy.xml", &s, err, sizeof err), ISA_ERR_XML);
    assert_true(strncmp(err, "toy.xml:", 8) == 0);
    long l = atol(err + 8);
    long lines = 1;
    for (size_t i = 0; i < cut; i++)
        lines += toy_text[i] == '\n';
    assert_true(l >= 1 && l <= lines);
    assert_int_equal(isa_open("/nonexistent/x.xml", &s, err, sizeof err), ISA_ERR_IO);
    assert_true(strstr(err, "/nonexistent/x.xml:0: ") == err);
    assert_null(isa_load("/nonexistent/x.xml", err, sizeof err));
    /* an entity declared by the document is not expanded from outside sources */
    const char *ent = "<?xml version=\"1.0\"?><!DOCTYPE Spec [<!ENTITY e SYSTEM "
                      "\"file:///etc/passwd\">]><Spec>&e;</Spec>";
    assert_int_equal(isa_open_memory(ent, strlen(ent), "ent.xml", &s, err, sizeof err),
                     ISA_ERR_SCHEMA); /* no ISA element; the entity was never read */
}

static void test_load_schema_errors(void **st)
{
    (void)st;
    /* missing required elements */
    expect_load_err(NULL, "<EncodingName>SHORT</EncodingName>", "", ISA_ERR_SCHEMA,
                    line_of("<Encoding Order=\"10\">"), "missing <EncodingName>");
    expect_load_err(NULL, "<ArchitectureName>TOY</ArchitectureName>", "", ISA_ERR_SCHEMA,
                    line_of("<Architecture>"), "<Architecture>");
    expect_load_err(NULL, "<InstructionName>ld</InstructionName>", "", ISA_ERR_SCHEMA,
                    line_of("<InstructionName>ld") - 1, "missing <InstructionName>");
    expect_load_err("<InstructionName>halt", "<Opcode>63</Opcode>", "", ISA_ERR_SCHEMA,
                    line_of("<Opcode>63") - 3, "missing <Opcode>");
    expect_load_err(NULL, "<Encoding Order=\"20\">", "<Encoding>", ISA_ERR_SCHEMA,
                    line_of("<Encoding Order=\"20\">"), "Order");
    /* bad booleans and numbers */
    expect_load_err(NULL, "<IsBranch>TRUE</IsBranch>", "<IsBranch>yes</IsBranch>", ISA_ERR_SCHEMA,
                    line_of("<IsBranch>TRUE</IsBranch>"), "boolean");
    expect_load_err(NULL, "Input=\"true\"", "Input=\"maybe\"", ISA_ERR_SCHEMA,
                    line_of("Input=\"true\""), "Input");
    expect_load_err(NULL, "<BitCount>16</BitCount>", "<BitCount>1x6</BitCount>", ISA_ERR_SCHEMA,
                    line_of("<BitCount>16</BitCount>"), "bad digit 'x'");
    expect_load_err(NULL, "<BitCount>16</BitCount>", "<BitCount>12</BitCount>", ISA_ERR_SCHEMA,
                    line_of("<BitCount>16</BitCount>"), "multiple of 8");
    /* bad radix digits */
    expect_load_err(NULL, "1000000000000000</EncodingIdentifierMask>",
                    "1000000000000002</EncodingIdentifierMask>", ISA_ERR_SCHEMA,
                    line_of("1000000000000000</EncodingIdentifierMask>"), "radix 2");
    expect_load_err(NULL, "Radix=\"16\">F000", "Radix=\"16\">G000", ISA_ERR_SCHEMA,
                    line_of("Radix=\"16\">F000"), "radix 16");
    expect_load_err(NULL, "Radix=\"16\">F000", "Radix=\"8\">F000", ISA_ERR_SCHEMA,
                    line_of("Radix=\"16\">F000"), "Radix");
    expect_load_err(NULL, "<Value>2</Value>", "<Value>0x2</Value>", ISA_ERR_SCHEMA,
                    line_of("<Value>2</Value>"), "<Value>");
    expect_load_err(NULL, "<DataType>bits</DataType>", "<DataType>blob</DataType>", ISA_ERR_SCHEMA,
                    line_of("<DataType>bits</DataType>"), "blob");
    expect_load_err(NULL, "Display=\"hex\"", "Display=\"octal\"", ISA_ERR_SCHEMA,
                    line_of("Display=\"hex\""), "octal");
    /* an identifier wider than the encoding */
    expect_load_err(NULL, "<EncodingIdentifier Radix=\"16\">1000<",
                    "<EncodingIdentifier Radix=\"16\">11000<", ISA_ERR_SCHEMA,
                    line_of("<EncodingIdentifier Radix=\"16\">1000<"), "fit");
    /* a range outside the encoding */
    expect_load_err(NULL, "<BitCount>3</BitCount><BitOffset>12</BitOffset>",
                    "<BitCount>5</BitCount><BitOffset>12</BitOffset>", ISA_ERR_SCHEMA,
                    line_of("<BitCount>3</BitCount><BitOffset>12</BitOffset>"), "outside");
    /* Order ties: encodings, ranges, operands */
    expect_load_err(NULL, "<Encoding Order=\"20\">", "<Encoding Order=\"10\">", ISA_ERR_SCHEMA,
                    line_of("<Encoding Order=\"20\">"), "tie");
    expect_load_err(NULL, "<Range Order=\"1\"><BitCount>5", "<Range Order=\"0\"><BitCount>5",
                    ISA_ERR_SCHEMA, line_of("<Range Order=\"0\"><BitCount>4"), "tie");
    expect_load_err(
        "<InstructionName>ld", "Order=\"3\"", "Order=\"2\"", ISA_ERR_SCHEMA,
        line_of("<FieldName>RS</FieldName><DataFormatName>FMT_REG</DataFormatName>") - 1, "tie");
    expect_load_err(NULL, "RangeCount=\"2\"", "RangeCount=\"3\"", ISA_ERR_SCHEMA,
                    line_of("RangeCount=\"2\""), "RangeCount");
    /* an encoding without OP used by two instructions */
    expect_load_err("<InstructionName>halt", "<EncodingName>LONG</EncodingName>",
                    "<EncodingName>LONGX</EncodingName>", ISA_ERR_SCHEMA, line_of("<Opcode>63"),
                    "Opcode must be 0");
    expect_load_err("<InstructionName>halt",
                    "<EncodingName>LONG</EncodingName>\n"
                    "            <EncodingCondition>default</EncodingCondition>\n"
                    "            <Opcode>63</Opcode>",
                    "<EncodingName>LONGX</EncodingName>\n"
                    "            <EncodingCondition>default</EncodingCondition>\n"
                    "            <Opcode>0</Opcode>",
                    ISA_ERR_SCHEMA, line_of("<Encoding Order=\"40\">"), "no OP field");
    /* X-21 references and a Mask/Match wider than the encoding */
    expect_load_err("<ReferenceMatch>", "<EncodingName>LONG</EncodingName>",
                    "<EncodingName>LONGY</EncodingName>", ISA_ERR_REF,
                    line_of("<EncodingName>LONG</EncodingName>\n        <Mask"), "LONGY");
    expect_load_err("<ReferenceMatch>", "<Mask Radix=\"16\">C01C</Mask>",
                    "<Mask Radix=\"16\">401C</Mask>", ISA_ERR_SCHEMA, line_of("<ReferenceMatch>"),
                    "encoding's own mask");
    expect_load_err("<ReferenceMatch>", "<Match Radix=\"16\">8000</Match>",
                    "<Match Radix=\"16\">4000</Match>", ISA_ERR_SCHEMA, line_of("<ReferenceMatch>"),
                    "identifier");
    expect_load_err("<UnnamedValue>", "<OperandTypeName>OPR_RM</OperandTypeName>",
                    "<OperandTypeName>OPR_XX</OperandTypeName>", ISA_ERR_REF,
                    line_of("<OperandTypeName>OPR_RM</OperandTypeName>\n        <Text>"), "OPR_XX");
    expect_load_err("<UnnamedValue>", "<Text>unknown</Text>", "", ISA_ERR_SCHEMA,
                    line_of("<UnnamedValue>"), "Text");
    /* root element */
    expect_load_err(NULL, "<Spec>", "<Spek>", ISA_ERR_XML, line_of("</Spec>"), NULL);
}

static void test_load_too_many(void **st)
{
    (void)st;
    /* 9 ranges (limit 8) */
    char ranges[2048] = "<BitLayout RangeCount=\"9\">";
    for (int i = 0; i < 9; i++) {
        char r[128];
        snprintf(r, sizeof r,
                 "<Range Order=\"%d\"><BitCount>1</BitCount><BitOffset>%d</BitOffset></Range>", i,
                 i);
        strcat(ranges, r);
    }
    strcat(ranges, "</BitLayout>");
    expect_load_err(
        NULL,
        "<BitLayout RangeCount=\"1\"><Range "
        "Order=\"0\"><BitCount>9</BitCount><BitOffset>0</BitOffset></Range></BitLayout>",
        ranges, ISA_ERR_SCHEMA, line_of("<FieldName>IMMU</FieldName>") + 1, "too many ranges");
    /* 9 operands (limit 8) on nop */
    char ops[4096] = "<Operands>";
    for (int i = 1; i <= 9; i++) {
        char o[256];
        snprintf(o, sizeof o,
                 "<Operand Input=\"true\" Output=\"false\" IsImplicit=\"true\" "
                 "IsBinaryMicrocodeRequired=\"false\" Order=\"%d\"><DataFormatName>FMT_REG</"
                 "DataFormatName><OperandType>OPR_FLAGS</OperandType></Operand>",
                 i);
        strcat(ops, o);
    }
    strcat(ops, "</Operands>");
    expect_load_err("<InstructionName>nop", "<Operands/>", ops, ISA_ERR_SCHEMA,
                    line_of("<Opcode>7</Opcode>") + 1, "too many operands");
}

static void test_load_ref_errors(void **st)
{
    (void)st;
    expect_load_err("<InstructionName>ld", "<EncodingName>LONG</EncodingName>",
                    "<EncodingName>LONGER</EncodingName>", ISA_ERR_REF,
                    line_of("<InstructionName>ld") + 4, "no encoding \"LONGER\"");
    expect_load_err("<InstructionName>ld", "<FieldName>IMM16</FieldName>",
                    "<FieldName>IMM99</FieldName>", ISA_ERR_REF,
                    line_of("<FieldName>IMM16</FieldName><DataFormatName>FMT_SINT"),
                    "no field \"IMM99\"");
    expect_load_err("<InstructionName>ld", "<DataFormatName>FMT_SINT</DataFormatName>",
                    "<DataFormatName>FMT_S99</DataFormatName>", ISA_ERR_REF,
                    line_of("<FieldName>IMM16</FieldName><DataFormatName>FMT_SINT"),
                    "no data format \"FMT_S99\"");
    expect_load_err("<InstructionName>li", "<OperandType>OPR_UIMM</OperandType>",
                    "<OperandType>OPR_NOPE</OperandType>", ISA_ERR_REF,
                    line_of("<OperandType>OPR_UIMM</OperandType><OperandSize>16"),
                    "no operand type \"OPR_NOPE\"");
    expect_load_err(NULL, "<Name>MEM</Name><Subgroup>LOAD", "<Name>MEMORY</Name><Subgroup>LOAD",
                    ISA_ERR_REF, line_of("<Name>MEM</Name><Subgroup>LOAD"),
                    "no functional group \"MEMORY\"");
    expect_load_err(NULL, "<Constraint><FieldName>RD</FieldName>",
                    "<Constraint><FieldName>RX</FieldName>", ISA_ERR_REF,
                    line_of("<Constraint><FieldName>RD</FieldName>"), "no field \"RX\"");
    expect_load_err(NULL, "<AsmFormat>{RD},{RS}[,{RM}]</AsmFormat>",
                    "<AsmFormat>{RD},{RS}[,{RN}]</AsmFormat>", ISA_ERR_REF,
                    line_of("<AsmFormat>{RD},{RS}[,{RM}]</AsmFormat>"), "{RN}");
    /* */
    expect_load_err("<AliasName>clr", "<InstructionName>li</InstructionName>",
                    "<InstructionName>lx</InstructionName>", ISA_ERR_REF,
                    line_of("<AliasName>clr") + 1, "no instruction \"lx\"");
    expect_load_err("<AliasName>ldself", "<EncodingName>LONG</EncodingName>",
                    "<EncodingName>SHORT</EncodingName>", ISA_ERR_REF,
                    line_of("<AliasName>ldself") + 2, "no encoding \"SHORT\"");
    expect_load_err("<AliasName>ldz", "<FieldName>IMM16</FieldName>", "<FieldName>IMM9</FieldName>",
                    ISA_ERR_REF, line_of("<AliasName>ldz") + 4, "no field \"IMM9\"");
    expect_load_err("<AliasName>ldself", "<SameAs>RD</SameAs>", "<SameAs>RQ</SameAs>", ISA_ERR_REF,
                    line_of("<SameAs>RD</SameAs>"), "no field \"RQ\"");
    expect_load_err("<AliasName>ldz", "<Value>0</Value>", "<Value>65536</Value>", ISA_ERR_SCHEMA,
                    line_of("<AliasName>ldz") + 4, "does not fit");
    expect_load_err("<AliasName>ldz", "<Value>0</Value>", "<Value>0</Value><NotValue>1</NotValue>",
                    ISA_ERR_SCHEMA, line_of("<AliasName>ldz") + 4, "exactly one");
    expect_load_err("<AliasName>clr", "<AsmFormat>{RD}</AsmFormat>", "<AsmFormat>{RS}</AsmFormat>",
                    ISA_ERR_REF, line_of("<AliasName>clr") + 5, "{RS}");
    expect_load_err("<AliasName>clr", "<AsmFormat>{RD}</AsmFormat>", "", ISA_ERR_SCHEMA,
                    line_of("<AliasName>clr") - 1, "missing <AsmFormat>");
}

/* ---- a 64-bit and an 8-bit encoding, fields across the 32-bit boundary ------------ */

static const char wide_xml[] =
    "<Spec><ISA><Architecture><ArchitectureName>WIDE</ArchitectureName></Architecture>"
    "<Encodings>"
    "<Encoding Order=\"1\"><EncodingName>W64</EncodingName><BitCount>64</BitCount>"
    "<EncodingIdentifierMask Radix=\"16\">FF00000000000000</EncodingIdentifierMask>"
    "<EncodingIdentifiers><EncodingIdentifier Radix=\"16\">AB00000000000000</EncodingIdentifier>"
    "</EncodingIdentifiers><MicrocodeFormat><BitMap>"
    "<Field><FieldName>OP</FieldName><BitLayout><Range><BitCount>8</BitCount><BitOffset>48"
    "</BitOffset></Range></BitLayout></Field>"
    "<Field><FieldName>X</FieldName><BitLayout RangeCount=\"2\">"
    "<Range Order=\"0\"><BitCount>4</BitCount><BitOffset>28</BitOffset></Range>"
    "<Range Order=\"1\"><BitCount>4</BitCount><BitOffset>32</BitOffset></Range>"
    "</BitLayout></Field>"
    "<Field><FieldName>LIT</FieldName><BitLayout><Range><BitCount>12</BitCount><BitOffset>36"
    "</BitOffset></Range></BitLayout></Field>"
    "</BitMap></MicrocodeFormat></Encoding>"
    "<Encoding Order=\"2\"><EncodingName>B8</EncodingName><BitCount>8</BitCount>"
    "<EncodingIdentifierMask>11110000</EncodingIdentifierMask>"
    "<EncodingIdentifiers><EncodingIdentifier>00010000</EncodingIdentifier>"
    "</EncodingIdentifiers><MicrocodeFormat><BitMap>"
    "<Field><FieldName>N</FieldName><BitLayout><Range><BitCount>4</BitCount><BitOffset>0"
    "</BitOffset></Range></BitLayout></Field>"
    "</BitMap></MicrocodeFormat></Encoding>"
    "</Encodings><Instructions>"
    "<Instruction><InstructionName>wide</InstructionName><InstructionEncodings>"
    "<InstructionEncoding><EncodingName>W64</EncodingName><Opcode Radix=\"16\">5A</Opcode>"
    "<Operands>"
    "<Operand Order=\"1\"><FieldName>X</FieldName><DataFormatName>U</DataFormatName>"
    "<OperandType>T_UDEC</OperandType></Operand>"
    "<Operand Order=\"2\"><FieldName>LIT</FieldName><DataFormatName>U</DataFormatName>"
    "<OperandType>T_HEX</OperandType></Operand>"
    "</Operands></InstructionEncoding></InstructionEncodings></Instruction>"
    "<Instruction><InstructionName>byte</InstructionName><InstructionEncodings>"
    "<InstructionEncoding><EncodingName>B8</EncodingName><Opcode>0</Opcode><Operands>"
    "<Operand><FieldName>N</FieldName><DataFormatName>U</DataFormatName>"
    "<OperandType>T_UDEC</OperandType></Operand>"
    "</Operands></InstructionEncoding></InstructionEncodings></Instruction>"
    "</Instructions><DataFormats><DataFormat><DataFormatName>U</DataFormatName>"
    "<DataType>integer</DataType><BitCount>64</BitCount></DataFormat></DataFormats>"
    "<OperandTypes><OperandType Display=\"udec\"><OperandTypeName>T_UDEC</OperandTypeName>"
    "</OperandType><OperandType Display=\"hex\"><OperandTypeName>T_HEX</OperandTypeName>"
    "</OperandType></OperandTypes></ISA></Spec>";

static void test_wide(void **st)
{
    (void)st;
    char err[256], text[64];
    isa_spec *w = NULL;
    isa_status s = isa_open_memory(wide_xml, strlen(wide_xml), "wide.xml", &w, err, sizeof err);
    if (s != ISA_OK) fail_msg("%s", err);
    /* id 0xAB << 56 | OP 0x5A << 48 | LIT 0xABC << 36 | X = 0x96: 9 << 32, 6 << 28 */
    const uint8_t buf[] = {0x00, 0x00, 0x00, 0x60, 0xC9, 0xAB, 0x5A, 0xAB};
    isa_decoded d;
    assert_int_equal(isa_decode(w, buf, 8, 0, &d), ISA_OK);
    assert_int_equal(d.length, 8);
    assert_int_equal(d.word, 0xAB5AABC960000000u);
    isa_format(w, &d, text, sizeof text);
    assert_string_equal(text, "wide 150,0xabc");
    assert_int_equal(isa_decode(w, buf, 7, 0, &d), ISA_ERR_TRUNCATED);
    isa_decoded a;
    assert_int_equal(isa_assemble(w, "wide 150,0xabc", 0, &a, err, sizeof err), ISA_OK);
    assert_int_equal(a.word, 0xAB5AABC960000000u);
    assert_int_equal(isa_assemble(w, "wide 256,1", 0, &a, err, sizeof err), ISA_ERR_RANGE);
    const uint8_t b[] = {0x1F};
    assert_int_equal(isa_decode(w, b, 1, 0, &d), ISA_OK);
    isa_format(w, &d, text, sizeof text);
    assert_string_equal(text, "byte 15"); /* no AsmFormat: default syntax */
    assert_int_equal(d.length, 1);
    const uint8_t z[] = {0x00};
    /* B8 does not match; W64 might, with 7 more bytes */
    assert_int_equal(isa_decode(w, z, 1, 0, &d), ISA_ERR_TRUNCATED);
    isa_free(w);
}

/* ---- manager ---------------------------------------------------------------------- */

static void test_manager(void **st)
{
    (void)st;
    isa_manager *m = isa_manager_new();
    char err[256];
    assert_non_null(isa_manager_load(m, TOY_XML, err, sizeof err));
    assert_null(isa_manager_load(m, "/nonexistent.xml", err, sizeof err));
    assert_non_null(isa_manager_load(m, TOY_XML, err, sizeof err)); /* replaces */
    assert_int_equal(isa_manager_count(m), 1);
    const isa_spec *s = isa_manager_get(m, "TOY");
    assert_non_null(s);
    assert_null(isa_manager_get(m, "RV64"));
#ifdef XPHMG_SPEC_XML
    const isa_spec *rv = isa_manager_load(m, XPHMG_SPEC_XML, err, sizeof err);
    if (rv) { /* the RISC-V spec may not exist yet in a fresh tree */
        assert_int_equal(isa_manager_count(m), 2);
        assert_ptr_equal(isa_manager_get(m, isa_arch_name(rv)), rv);
        assert_ptr_equal(isa_manager_get(m, "TOY"), s);
    }
#endif
    isa_manager_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model),         cmocka_unit_test(test_fields),
        cmocka_unit_test(test_decode),        cmocka_unit_test(test_decode_details),
        cmocka_unit_test(test_constraint),    cmocka_unit_test(test_truncated_unknown),
        cmocka_unit_test(test_assemble),      cmocka_unit_test(test_assemble_errors),
        cmocka_unit_test(test_aliases),       cmocka_unit_test(test_reference),
        cmocka_unit_test(test_encode),        cmocka_unit_test(test_format_small_buffer),
        cmocka_unit_test(test_load_not_xml),  cmocka_unit_test(test_load_schema_errors),
        cmocka_unit_test(test_load_too_many), cmocka_unit_test(test_load_ref_errors),
        cmocka_unit_test(test_wide),          cmocka_unit_test(test_manager),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
