"""The fake sysfs of umockdev made to behave as the kernel's does for a reader that keeps its descriptors
open and reads with pread, as orientationd does. The tests put this file before their driver scripts;
Benchmarks/sidebyside.py imports it.

write_in_place rewrites a polled attribute where it is: umockdev's set_attribute replaces the file by
rename, which an open descriptor never sees. One write at offset 0 of a fixed 16-byte record,
blank-padded, so the file never shrinks and a reader never finds it empty.

remove_in_place removes the device, and then its attributes read nothing through descriptors opened
before, as a removed device's sysfs attributes fail to read.
"""
import os as _os


def write_in_place(testbed, device, name, value):
    fd = _os.open(testbed.get_root_dir() + device + '/' + name, _os.O_WRONLY)
    try:
        _os.pwrite(fd, ('%15s\n' % value).encode(), 0)
    finally:
        _os.close(fd)


def remove_in_place(testbed, device):
    directory = testbed.get_root_dir() + device
    held = [_os.open(directory + '/' + name, _os.O_WRONLY) for name in _os.listdir(directory)
            if name.startswith('in_') and _os.path.isfile(directory + '/' + name)]
    testbed.remove_device(device)
    for fd in held:
        _os.ftruncate(fd, 0)
        _os.close(fd)
