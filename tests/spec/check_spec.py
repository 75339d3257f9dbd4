#!/usr/bin/env python3
"""Consistency checks on spec/xphmg.xml that an XSD cannot express.

  - X-19: every ISA/Registers name is an OPR_CSR predefined value of the same address, and
    the first OPR_CSR name of that address (the one printed); OPR_CSR may name more
    standard CSRs (the names binutils knows, errata P-282), never in the custom ranges.
  - X-20: an alias names an instruction, fields of its encoding, values that fit, and
    placeholders that are operands of that encoding.
  - X-06/X-08: two encodings that can match the same word are ordered most specific
    first, and a match rejected by a Constraint cannot fall through to a wrong encoding.
  - X-03/X-05/X-07: bit strings have BitCount digits, fields lie inside the encoding and
    do not overlap, OP is one range whose value is Opcode, operand fields are not fixed
    bits, identifiers have no bits outside the mask.
  - References: fields, formats, types, groups, AsmFormat placeholders, constraint fields.

Usage: check_spec.py spec.xml   (exit status 0 when every check passes)
       check_spec.py --expect TEXT bad.xml   (exit status 0 when a check fails with TEXT)
"""
import re
import sys
import xml.etree.ElementTree as ET

errors = []


def err(msg):
    errors.append(msg)


def num(e, default_radix):
    return int(e.text.strip(), int(e.get('Radix', default_radix)))


def ranges_of(bl):
    rs = bl.findall('Range')
    if bl.get('RangeCount') is not None and int(bl.get('RangeCount')) != len(rs):
        err('RangeCount %s but %d ranges' % (bl.get('RangeCount'), len(rs)))
    orders = sorted(int(r.get('Order', 0)) for r in rs)
    if orders != list(range(len(rs))):
        err('Range Order values %s are not 0..%d' % (orders, len(rs) - 1))
    out = []
    for r in sorted(rs, key=lambda r: int(r.get('Order', 0))):
        bc, bo = int(r.findtext('BitCount')), int(r.findtext('BitOffset'))
        out.append((bc, bo))
    return out


def field_mask(rs):
    m = 0
    for bc, bo in rs:
        m |= ((1 << bc) - 1) << bo
    return m


def section(isa, tag):
    e = isa.find(tag)
    if e is None:
        err('ISA/%s missing' % tag)
        return []
    return list(e)


# Custom read/write and read-only CSR ranges (RISC-V privileged spec, table 2.1).
CUSTOM_CSRS = [(0x5c0, 0x5ff), (0x6c0, 0x6ff), (0x7c0, 0x7ff), (0x8c0, 0x8ff), (0x9c0, 0x9ff),
               (0xac0, 0xaff), (0xbc0, 0xbff), (0xcc0, 0xcff), (0xdc0, 0xdff), (0xec0, 0xeff),
               (0xfc0, 0xfff)]


def check_aliases(isa, encs, insn_encs):
    """X-20."""
    for a in (list(isa.find('Aliases')) if isa.find('Aliases') is not None else []):
        an, iname = a.findtext('AliasName'), a.findtext('InstructionName')
        if iname not in insn_encs:
            err('alias %s: no instruction %s' % (an, iname))
            continue
        ename, shown = insn_encs[iname]
        if a.findtext('EncodingName') not in (None, ename):
            err('alias %s: %s has no encoding %s' % (an, iname, a.findtext('EncodingName')))
        enc = encs[ename]
        for c in a.findall('Conditions/Condition'):
            fn = c.findtext('FieldName')
            if fn not in enc['fields']:
                err('alias %s: encoding %s has no field %s' % (an, ename, fn))
                continue
            width = sum(bc for bc, _ in enc['fields'][fn])
            for tag in ('Value', 'NotValue'):
                if c.find(tag) is not None and int(c.findtext(tag)) >> width:
                    err('alias %s: %s %s does not fit field %s' % (an, tag, c.findtext(tag), fn))
            if c.find('SameAs') is not None and c.findtext('SameAs') not in enc['fields']:
                err('alias %s: encoding %s has no field %s' % (an, ename, c.findtext('SameAs')))
        for p in re.findall(r'\{([A-Za-z0-9_]+)\}', a.findtext('AsmFormat') or ''):
            if p not in shown:
                err('alias %s: placeholder {%s} is not an operand of %s' % (an, p, iname))


def main(path):
    try:
        isa = ET.parse(path).getroot().find('ISA')
    except (OSError, ET.ParseError) as e:
        print('check_spec: %s: %s' % (path, e))
        return 1
    if isa is None:
        print('check_spec: %s: no ISA element' % path)
        return 1

    # ---- catalogues
    formats = {d.findtext('DataFormatName') for d in section(isa, 'DataFormats')}
    types, display = {}, {}
    for t in section(isa, 'OperandTypes'):
        display[t.findtext('OperandTypeName')] = t.get('Display')
        pv = t.find('OperandPredefinedValues')
        vals = []
        for p in (list(pv) if pv is not None else []):
            vals.append((p.findtext('Name'), int(p.findtext('Value'))))
        types[t.findtext('OperandTypeName')] = vals
    groups = {}
    for g in section(isa, 'FunctionalGroups'):
        groups[g.findtext('Name')] = {s.text for s in g.findall('Subgroup')}

    # ---- OPR_CSR == Registers
    regs = {}
    for r in section(isa, 'Registers'):
        name, addr = r.findtext('Name'), num(r.find('Address'), 16)
        if name in regs:
            err('register %s listed twice' % name)
        regs[name] = addr
        reset = num(r.find('ResetValue'), 16) if r.find('ResetValue') is not None else None
        used = 0
        for f in r.findall('Fields/Field'):
            fn = f.findtext('FieldName')
            rs = ranges_of(f.find('BitLayout'))
            fm = field_mask(rs)
            if fm >> 64:
                err('register %s field %s beyond bit 63' % (name, fn))
            if fm & used:
                err('register %s field %s overlaps another field' % (name, fn))
            used |= fm
            if reset is not None and f.find('ResetValue') is not None:
                v, sh = 0, 0
                for bc, bo in rs:
                    v |= ((reset >> bo) & ((1 << bc) - 1)) << sh
                    sh += bc
                if v != num(f.find('ResetValue'), 16):
                    err('register %s field %s: ResetValue 0x%x, register ResetValue gives 0x%x'
                        % (name, fn, num(f.find('ResetValue'), 16), v))
    csr = dict(types.get('OPR_CSR', []))
    first = {}
    for n, v in types.get('OPR_CSR', []):
        first.setdefault(v, n)
    reg_addrs = set(regs.values())
    for n in sorted(set(csr) | set(regs)):
        if n not in regs:
            if csr[n] in reg_addrs:
                continue  # another (older) name of an implemented CSR
            # the custom (vendor) CSR ranges of the privileged spec: only ISA/Registers
            if any(lo <= csr[n] <= hi for lo, hi in CUSTOM_CSRS):
                err('OPR_CSR names %s in a custom CSR range but ISA/Registers does not' % n)
        elif n not in csr:
            err('ISA/Registers has %s but OPR_CSR does not name it' % n)
        elif csr[n] != regs[n]:
            err('CSR %s: OPR_CSR value 0x%x, Registers address 0x%x' % (n, csr[n], regs[n]))
        elif first[csr[n]] != n:
            err('CSR %s: OPR_CSR names 0x%x %s first' % (n, csr[n], first[csr[n]]))
    if len(set(regs.values())) != len(regs):
        err('two registers share an address')

    # ---- encodings
    encs = {}
    for e in section(isa, 'Encodings'):
        name = e.findtext('EncodingName')
        n = int(e.findtext('BitCount'))
        for tag in ('EncodingIdentifierMask',):
            if len(e.findtext(tag).strip()) != n and e.find(tag).get('Radix', '2') == '2':
                err('%s: %s has %d digits, BitCount %d' % (name, tag, len(e.findtext(tag).strip()), n))
        mask = num(e.find('EncodingIdentifierMask'), 2)
        ids = []
        for i in e.find('EncodingIdentifiers'):
            if i.get('Radix', '2') == '2' and len(i.text.strip()) != n:
                err('%s: identifier has %d digits, BitCount %d' % (name, len(i.text.strip()), n))
            v = num(i, 2)
            if v & ~mask:
                err('%s: identifier has bits outside the mask' % name)
            ids.append(v)
        fields = {}
        used = 0
        for f in e.findall('MicrocodeFormat/BitMap/Field'):
            fn = f.findtext('FieldName')
            rs = ranges_of(f.find('BitLayout'))
            fm = field_mask(rs)
            if fn in fields:
                err('%s: field %s twice' % (name, fn))
            if fm >> n:
                err('%s: field %s beyond BitCount' % (name, fn))
            if fm & used:
                err('%s: field %s overlaps another field' % (name, fn))
            used |= fm
            fields[fn] = rs
        op = None
        if 'OP' in fields:
            if len(fields['OP']) != 1:
                err('%s: OP field has several ranges (X-07)' % name)
            if field_mask(fields['OP']) & ~mask:
                err('%s: OP field is not fixed by the mask' % name)
            bc, bo = fields['OP'][0]
            op = (ids[0] >> bo) & ((1 << bc) - 1)
        if name in encs:
            err('encoding %s twice' % name)
        encs[name] = dict(name=name, bits=n, mask=mask, ids=ids, fields=fields, op=op,
                          order=int(e.get('Order')), users=[], cons=[])

    # ---- instructions
    names = set()
    insn_encs = {}
    for i in section(isa, 'Instructions'):
        iname = i.findtext('InstructionName')
        if iname in names:
            err('instruction %s twice' % iname)
        names.add(iname)
        g = i.find('FunctionalGroup')
        if g is None or g.findtext('Name') not in groups:
            err('%s: functional group missing or not in the catalogue' % iname)
        elif g.findtext('Subgroup') and g.findtext('Subgroup') not in groups[g.findtext('Name')]:
            err('%s: subgroup %s not in group %s' % (iname, g.findtext('Subgroup'), g.findtext('Name')))
        flags = {f.tag: (f.text or '').strip().upper() in ('TRUE', '1') for f in i.find('InstructionFlags')}
        if (flags.get('IsConditionalBranch') or flags.get('IsIndirectBranch')) and not flags.get('IsBranch'):
            err('%s: conditional/indirect branch without IsBranch (X-15)' % iname)
        for ie in i.findall('InstructionEncodings/InstructionEncoding'):
            en = ie.findtext('EncodingName')
            if en not in encs:
                err('%s: unknown encoding %s' % (iname, en))
                continue
            enc = encs[en]
            enc['users'].append(iname)
            shown = {}
            insn_encs.setdefault(iname, (en, shown))
            opcode = num(ie.find('Opcode'), 10)
            if enc['op'] is None and opcode != 0:
                err('%s: encoding without OP but Opcode %d (X-07)' % (iname, opcode))
            if enc['op'] is not None and opcode != enc['op']:
                err('%s: Opcode %d but OP field of the identifier is %d' % (iname, opcode, enc['op']))
            orders = []
            for o in ie.findall('Operands/Operand'):
                orders.append(int(o.get('Order')))
                fmt = o.findtext('DataFormatName')
                typ = o.findtext('OperandType') or o.findtext('OperantType')
                if fmt not in formats:
                    err('%s: unknown data format %s' % (iname, fmt))
                if typ not in types:
                    err('%s: unknown operand type %s' % (iname, typ))
                    continue
                encoded = o.get('IsBinaryMicrocodeRequired') == 'true'
                implicit = o.get('IsImplicit') == 'true'
                if encoded:
                    fn = o.findtext('FieldName')
                    if fn not in enc['fields']:
                        err('%s: operand field %s not in encoding %s' % (iname, fn, en))
                        continue
                    if field_mask(enc['fields'][fn]) & enc['mask']:
                        err('%s: operand field %s overlaps fixed bits' % (iname, fn))
                    key = fn
                else:
                    if len(types[typ]) != 1:
                        err('%s: not-encoded operand of type %s needs exactly one predefined value (X-10)'
                            % (iname, typ))
                    key = typ
                if not implicit:
                    shown[key] = o
            pcrel = [o for o in ie.findall('Operands/Operand')
                     if display.get(o.findtext('OperandType') or o.findtext('OperantType')) == 'pcrel']
            if pcrel and (not flags.get('IsBranch') or flags.get('IsIndirectBranch')):
                err('%s: pcrel operand but not a direct branch (X-15)' % iname)
            if sorted(orders) != list(range(1, len(orders) + 1)):
                err('%s: operand Order values %s are not 1..n (X-11)' % (iname, sorted(orders)))
            asm = ie.findtext('AsmFormat')
            if asm is not None:
                ph = re.findall(r'\{([A-Za-z0-9_]+)\}', asm)
                if sorted(ph) != sorted(shown):
                    err('%s: AsmFormat placeholders %s, shown operands %s' % (iname, ph, sorted(shown)))
                for grp in re.findall(r'\[([^\]]*)\]', asm):
                    for p in re.findall(r'\{([A-Za-z0-9_]+)\}', grp):
                        if p in shown and shown[p].get('DefaultValue') is None:
                            err('%s: optional operand %s has no DefaultValue (X-14)' % (iname, p))
            for c in ie.findall('Constraints/Constraint'):
                fn = c.findtext('FieldName')
                if fn not in enc['fields']:
                    err('%s: constraint on unknown field %s' % (iname, fn))
                else:
                    enc['cons'].append((fn, int(c.findtext('NotValue'))))
    for e in encs.values():
        # X-07 as this file uses it: one instruction per encoding
        if len(e['users']) != 1:
            err('encoding %s used by %d instructions' % (e['name'], len(e['users'])))

    # ---- overlapping encodings must be ordered, fall-through must be rejected
    def fval(enc, fn, word):
        v, sh = 0, 0
        for bc, bo in enc['fields'][fn]:
            v |= ((word >> bo) & ((1 << bc) - 1)) << sh
            sh += bc
        return v

    lst = sorted(encs.values(), key=lambda e: e['order'])
    orders = [e['order'] for e in lst]
    if len(set(orders)) != len(orders):
        err('two encodings share an Order (X-06)')
    for ai, a in enumerate(lst):
        for b in lst[ai + 1:]:
            if a['bits'] != b['bits']:
                continue
            common = a['mask'] & b['mask']
            if not any((x ^ y) & common == 0 for x in a['ids'] for y in b['ids']):
                continue  # disjoint
            # b's constraints may exclude every word a fixes (a's identifier decides them)
            if any(field_mask(b['fields'][fn]) & ~a['mask'] == 0 and fval(b, fn, a['ids'][0]) == v
                   for fn, v in b['cons']):
                continue
            if a['mask'] & b['mask'] != b['mask'] or a['mask'] == b['mask']:
                err('%s (Order %d) and %s (Order %d) overlap and the first is not more specific'
                    % (a['name'], a['order'], b['name'], b['order']))
                continue
            # a is more specific: words a rejects by a constraint fall through to b
            for fn, v in a['cons']:
                if field_mask(a['fields'][fn]) & ~b['mask'] == 0:
                    continue  # b fixes that field too: handled by b's own identifier
                ok = any(field_mask(b['fields'][g]) & ~a['mask'] == 0 and fval(b, g, a['ids'][0]) == u
                         for g, u in b['cons'])
                if not ok:
                    err('%s rejects %s=%d, which then decodes as %s (X-08)'
                        % (a['name'], fn, v, b['name']))

    check_aliases(isa, encs, insn_encs)
    for m in errors:
        print('check_spec: ' + m)
    print('check_spec: %d encodings, %d instructions, %d registers, %d errors'
          % (len(encs), len(names), len(regs), len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == '--expect':
        rc = main(sys.argv[3])
        hit = any(sys.argv[2] in m for m in errors)
        if not hit:
            print('check_spec: expected an error containing "%s"' % sys.argv[2])
        sys.exit(0 if rc and hit else 1)
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
