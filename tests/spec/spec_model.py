"""A small, independent reader of spec/xphmg.xml for the spec tests.

It implements spec/README.md X-03 (numbers), X-05 (split fields and padding), X-06..X-08
(decoding with Order and Constraints), X-10..X-14 (operand values and assembly text) in a
few lines of Python, so that the XML can be checked against GNU binutils without going
through the C library under test. Only the spellings the project writes are read."""
import xml.etree.ElementTree as ET


def num(e, default_radix):
    r = int(e.get('Radix', default_radix))
    return int(e.text.strip(), r)


def layout(bl):
    rs = []
    for r in sorted(bl.findall('Range'), key=lambda r: int(r.get('Order'))):
        bc = int(r.findtext('BitCount'))
        bo = int(r.findtext('BitOffset'))
        p = r.find('Padding')
        pc = int(p.findtext('BitCount')) if p is not None else 0
        pv = num(p.find('Value'), 2) if p is not None else 0
        rs.append((bc, bo, pc, pv))
    return rs


def extract(rs, word):
    v, sh = 0, 0
    for bc, bo, pc, pv in rs:
        v |= pv << sh
        sh += pc
        v |= ((word >> bo) & ((1 << bc) - 1)) << sh
        sh += bc
    return v, sh


def insert(rs, value, word):
    sh = 0
    for bc, bo, pc, pv in rs:
        assert (value >> sh) & ((1 << pc) - 1) == pv, 'padding mismatch'
        sh += pc
        word |= ((value >> sh) & ((1 << bc) - 1)) << bo
        sh += bc
    return word


class Spec:
    def __init__(self, path):
        root = ET.parse(path).getroot()
        isa = root.find('ISA')
        self.fmts = {}
        for d in isa.find('DataFormats'):
            f0 = d.find('DataAttributes/BitMap/Field')
            self.fmts[d.findtext('DataFormatName')] = dict(
                bits=int(d.findtext('BitCount')), signed=f0.get('Signedness') == 'Signed')
        self.types = {}
        for t in isa.find('OperandTypes'):
            pvs = {}
            pv = t.find('OperandPredefinedValues')
            for p in (pv if pv is not None else []):
                pvs.setdefault(int(p.findtext('Value')), p.findtext('Name'))  # first name
            self.types[t.findtext('OperandTypeName')] = dict(display=t.get('Display', 'udec'), pv=pvs)
        self.encs = {}
        for e in isa.find('Encodings'):
            fields = {}
            for f in e.find('MicrocodeFormat/BitMap'):
                fields[f.findtext('FieldName')] = layout(f.find('BitLayout'))
            self.encs[e.findtext('EncodingName')] = dict(
                name=e.findtext('EncodingName'), order=int(e.get('Order')), bits=int(e.findtext('BitCount')),
                mask=num(e.find('EncodingIdentifierMask'), 2),
                ids=[num(i, 2) for i in e.find('EncodingIdentifiers')], fields=fields)
        self.insns = []
        for i in isa.find('Instructions'):
            ie = i.find('InstructionEncodings/InstructionEncoding')
            ops = []
            opsel = ie.find('Operands')
            for o in (list(opsel) if opsel is not None else []):
                ops.append(dict(order=int(o.get('Order')), field=o.findtext('FieldName'),
                                fmt=o.findtext('DataFormatName'), type=o.findtext('OperandType'),
                                input=o.get('Input') == 'true', output=o.get('Output') == 'true',
                                implicit=o.get('IsImplicit') == 'true',
                                binreq=o.get('IsBinaryMicrocodeRequired') == 'true',
                                default=int(o.get('DefaultValue')) if o.get('DefaultValue') else None))
            ops.sort(key=lambda o: o['order'])
            cons = [(c.findtext('FieldName'), int(c.findtext('NotValue')))
                    for c in ie.findall('Constraints/Constraint')]
            flags = {f.tag: f.text.upper() == 'TRUE' for f in i.find('InstructionFlags')}
            enc = self.encs[ie.findtext('EncodingName')]
            self.insns.append(dict(name=i.findtext('InstructionName'), enc=enc,
                                   opcode=num(ie.find('Opcode'), 10), ops=ops, cons=cons,
                                   asm=ie.findtext('AsmFormat'), flags=flags,
                                   group=i.findtext('FunctionalGroup/Name'),
                                   sub=i.findtext('FunctionalGroup/Subgroup')))
        self.by_enc = {}
        for ins in self.insns:
            self.by_enc.setdefault(ins['enc']['name'], []).append(ins)
        self.order = sorted(self.encs.values(), key=lambda e: e['order'])
        # the reference disassembler's narrower matches (encoding -> [(mask, match)])
        self.ref_match = {}
        rd = isa.find('ReferenceDisassembly')
        for m in (rd.findall('ReferenceMatch') if rd is not None else []):
            self.ref_match.setdefault(m.findtext('EncodingName'), []).append(
                (num(m.find('Mask'), 16), num(m.find('Match'), 16)))
        self.regs = []
        rr = isa.find('Registers')
        for r in (rr if rr is not None else []):
            self.regs.append((r.findtext('Name'), num(r.find('Address'), 16), r.findtext('Unit')))

    def reference_data(self, ins, word):
        """X-21: whether the reference disassembler prints this decoded word as data."""
        return any((word & m) != v for m, v in self.ref_match.get(ins['enc']['name'], []))

    def reference_canonical(self, ins, word):
        """X-21: the word with the bits the reference's narrower match fixes set to it."""
        for m, v in self.ref_match.get(ins['enc']['name'], []):
            extra = m & ~ins['enc']['mask']
            word = (word & ~extra) | (v & extra)
        return word

    # ---- decode
    def decode(self, word, nbits):
        for e in self.order:
            if e['bits'] != nbits:
                continue
            w = word & ((1 << nbits) - 1)
            if not any((w & e['mask']) == (i & e['mask']) for i in e['ids']):
                continue
            op = extract(e['fields']['OP'], w)[0] if 'OP' in e['fields'] else 0
            cands = [i for i in self.by_enc[e['name']] if i['opcode'] == op]
            if not cands:
                continue
            ins = cands[0]
            if any(extract(e['fields'][f], w)[0] == v for f, v in ins['cons']):
                continue
            return ins
        return None

    def value(self, op, enc, word):
        if op['binreq']:
            raw, width = extract(enc['fields'][op['field']], word)
        else:
            raw, width = min(self.types[op['type']]['pv']), 0
        if (self.fmts[op['fmt']]['signed'] and not self.types[op['type']]['pv'] and width
                and raw >> (width - 1)):
            raw -= 1 << width
        return raw

    def fmt_value(self, op, v, pc):
        t = self.types[op['type']]
        if t['pv']:
            if v in t['pv']:
                return t['pv'][v]
        d = t['display']
        if d == 'dec':
            return str(v)
        if d == 'udec':
            return str(v)
        if d == 'hex':
            b = self.fmts[op['fmt']]['bits']
            return hex(v & ((1 << b) - 1))
        if d == 'pcrel':
            return '%x' % ((pc + v) & ((1 << 64) - 1))
        raise ValueError(d)

    def format(self, ins, word, pc=0):
        enc = ins['enc']
        vals = {}
        for op in ins['ops']:
            key = op['field'] if op['binreq'] else op['type']
            vals[key] = (op, self.value(op, enc, word))
        if ins['asm']:
            s = ins['asm']
            # optional groups
            out = ''
            i = 0
            while i < len(s):
                if s[i] == '[':
                    j = s.index(']', i)
                    grp = s[i + 1:j]
                    names = [p.split('}')[0] for p in grp.split('{')[1:]]
                    if all(vals[n][0]['default'] is not None and vals[n][1] == vals[n][0]['default']
                           for n in names):
                        i = j + 1
                        continue
                    out += grp
                    i = j + 1
                else:
                    out += s[i]
                    i += 1
            for k, (op, v) in vals.items():
                out = out.replace('{%s}' % k, self.fmt_value(op, v, pc))
            ops = out
        else:
            ops = ','.join(self.fmt_value(op, vals[op['field'] if op['binreq'] else op['type']][1], pc)
                           for op in ins['ops'] if not op['implicit'])
        return (ins['name'] + ' ' + ops).strip()
