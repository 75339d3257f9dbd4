#!/usr/bin/env python3
"""rsp_raw — xphmg-sim's GDB stub at the packet level, for what a gdb batch session
cannot show: Ctrl-C (0x03) while running, hardware breakpoints (Z1), writing and
reading an XPHMG CSR by register number (65 + address), the target description, kill.
Expected values come from the ELF (entry point, `main` via nm) and the spec XML.

Usage: rsp_raw.py XPHMG_SIM SPIN_ELF NM SPEC_XML
"""
import re
import socket
import struct
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

sim, elf, nm, spec = sys.argv[1:5]
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print('FAIL: ' + what)


entry = struct.unpack_from('<Q', open(elf, 'rb').read(), 24)[0]
main_addr = int(next(l.split()[0] for l in subprocess.run([nm, elf], capture_output=True,
                text=True).stdout.splitlines() if l.endswith(' main')), 16)
regs = {r.findtext('Name'): int(r.findtext('Address'), 16)
        for r in ET.parse(spec).getroot().iter('Register')}

p = subprocess.Popen([sim, '--gdb-wait', '0', elf], stderr=subprocess.PIPE, text=True)
port = int(re.search(r'127\.0\.0\.1:(\d+)', p.stderr.readline()).group(1))
s = socket.create_connection(('127.0.0.1', port), timeout=20)
buf = b''


def recv_packet():
    global buf
    while True:
        m = re.search(rb'\$([^#]*)#([0-9a-f]{2})', buf)
        if m:
            buf = buf[m.end():]
            s.sendall(b'+')
            return m.group(1).decode()
        chunk = s.recv(4096)
        if not chunk:
            raise EOFError('connection closed')
        buf += chunk


def send(data):
    s.sendall(b'$%s#%02x' % (data.encode(), sum(data.encode()) & 0xff))


def cmd(data):
    send(data)
    while True:
        r = recv_packet()
        if not r.startswith('O') or r == 'OK':
            return r


def le(v):
    return struct.pack('<Q', v).hex()


check('qXfer:features:read+' in cmd('qSupported:swbreak+'), 'qSupported')
xml = ''
while True:  # the document in chunks: 'm' more follows, 'l' last
    r = cmd('qXfer:features:read:target.xml:%x,400' % len(xml))
    xml += r[1:]
    if r[0] != 'm':
        break
check('cap_prec_stat' in xml and 'regnum="%d"' % (65 + regs['cap_prec_stat']) in xml,
      'target description names cap_prec_stat at 65 + its address')
check(cmd('?').startswith('T05'), 'stopped before the first instruction')
check(cmd('p20') == le(entry), 'pc is the ELF entry before the first instruction')
check(cmd('Z1,%x,2' % main_addr) == 'OK', 'Z1 accepted')
check(cmd('c').startswith('T05'), 'hardware breakpoint stops')
check(cmd('p20') == le(main_addr), 'stopped at main')
check(cmd('z1,%x,2' % main_addr) == 'OK', 'z1')
exc = regs['cap_prec_exc_en']
check(cmd('P%x=%s' % (65 + exc, le(0x1f))) == 'OK', 'write cap_prec_exc_en')
check(cmd('p%x' % (65 + exc)) == le(0x1f), 'read back cap_prec_exc_en')
send('qRcmd,' + b'csr cap_prec_exc_en'.hex())
out = ''
while True:
    r = recv_packet()
    if r == 'OK':
        break
    out += bytes.fromhex(r[1:]).decode()
check('cap_prec_exc_en' in out and '0x000000000000001f' in out, 'monitor csr: ' + out.strip())
send('c')
time.sleep(0.5)
s.sendall(b'\x03')
r = recv_packet()
check(r.startswith('T02'), 'Ctrl-C stops a running guest (got %s)' % r)
check(int.from_bytes(bytes.fromhex(cmd('p20')), 'little') != main_addr, 'the guest ran on')
send('k')
rc = p.wait(timeout=20)
check(rc == 122, 'kill ends the simulation with 122 (got %d)' % rc)
print('rsp_raw: %s' % ('ok' if not fails else '%d failures' % len(fails)))
sys.exit(1 if fails else 0)
