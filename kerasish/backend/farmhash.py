"""FarmHash `Fingerprint64` (farmhashna), TensorFlow's `FingerprintCat64`
and SipHash-2-4.

Keras's lookup layers (several OOV buckets) and `HashedCrossing` bucket
values with these TensorFlow hashes, so a model trained with Keras maps the
same strings to the same buckets here (SipHash-2-4 is TensorFlow's keyed
"strong" hash, used when a `salt` is given). Fingerprint64 is a fixed,
portable function of the bytes (little-endian 64-bit words); it is written
here from its published definition with Python integers masked to 64 bits.
Hashing runs once per distinct value (callers hash `np.unique` values).
"""
_MASK = (1 << 64) - 1
_K0 = 0xC3A5C85C97CB3127
_K1 = 0xB492B66FBE98F273
_K2 = 0x9AE16A3B2F90404F
_CAT_MUL = 0xC6A4A7935BD1E995


def _word(data, i):
    return int.from_bytes(data[i:i + 8], "little")


def _word32(data, i):
    return int.from_bytes(data[i:i + 4], "little")


def _rot(value, shift):
    return value if shift == 0 else \
        ((value >> shift) | (value << (64 - shift))) & _MASK


def _shift_mix(value):
    return value ^ (value >> 47)


def _hash16(u, v, mul):
    a = ((u ^ v) * mul) & _MASK
    a ^= a >> 47
    b = ((v ^ a) * mul) & _MASK
    b ^= b >> 47
    return (b * mul) & _MASK


def _len_0_to_16(data):
    n = len(data)
    if n >= 8:
        mul = _K2 + n * 2
        a = (_word(data, 0) + _K2) & _MASK
        b = _word(data, n - 8)
        c = (_rot(b, 37) * mul + a) & _MASK
        d = ((_rot(a, 25) + b) * mul) & _MASK
        return _hash16(c, d, mul)
    if n >= 4:
        mul = _K2 + n * 2
        return _hash16(n + (_word32(data, 0) << 3), _word32(data, n - 4), mul)
    if n:
        y = data[0] + (data[n >> 1] << 8)
        z = n + (data[n - 1] << 2)
        return (_shift_mix(((y * _K2) ^ (z * _K0)) & _MASK) * _K2) & _MASK
    return _K2


def _len_17_to_32(data):
    n = len(data)
    mul = _K2 + n * 2
    a = (_word(data, 0) * _K1) & _MASK
    b = _word(data, 8)
    c = (_word(data, n - 8) * mul) & _MASK
    d = (_word(data, n - 16) * _K2) & _MASK
    return _hash16((_rot((a + b) & _MASK, 43) + _rot(c, 30) + d) & _MASK,
                   (a + _rot((b + _K2) & _MASK, 18) + c) & _MASK, mul)


def _len_33_to_64(data):
    n = len(data)
    mul = _K2 + n * 2
    a = (_word(data, 0) * _K2) & _MASK
    b = _word(data, 8)
    c = (_word(data, n - 8) * mul) & _MASK
    d = (_word(data, n - 16) * _K2) & _MASK
    y = (_rot((a + b) & _MASK, 43) + _rot(c, 30) + d) & _MASK
    z = _hash16(y, (a + _rot((b + _K2) & _MASK, 18) + c) & _MASK, mul)
    e = (_word(data, 16) * mul) & _MASK
    f = _word(data, 24)
    g = ((y + _word(data, n - 32)) * mul) & _MASK
    h = ((z + _word(data, n - 24)) * mul) & _MASK
    return _hash16((_rot((e + f) & _MASK, 43) + _rot(g, 30) + h) & _MASK,
                   (e + _rot((f + a) & _MASK, 18) + g) & _MASK, mul)


def _weak32(data, i, a, b):
    """Two 64-bit words from the 32 bytes at `i` and the seeds `a`, `b`."""
    w, x, y, z = (_word(data, i + k) for k in (0, 8, 16, 24))
    a = (a + w) & _MASK
    b = _rot((b + a + z) & _MASK, 21)
    c = a
    a = (a + x + y) & _MASK
    b = (b + _rot(a, 44)) & _MASK
    return (a + z) & _MASK, (b + c) & _MASK


def _long(data):
    n = len(data)
    x = 81
    y = (81 * _K1 + 113) & _MASK
    z = (_shift_mix((y * _K2 + 113) & _MASK) * _K2) & _MASK
    v, w = (0, 0), (0, 0)
    x = (x * _K2 + _word(data, 0)) & _MASK
    last = n - 64
    for i in range(0, ((n - 1) // 64) * 64, 64):
        x = (_rot((x + y + v[0] + _word(data, i + 8)) & _MASK, 37) *
             _K1) & _MASK
        y = (_rot((y + v[1] + _word(data, i + 48)) & _MASK, 42) *
             _K1) & _MASK
        x ^= w[1]
        y = (y + v[0] + _word(data, i + 40)) & _MASK
        z = (_rot((z + w[0]) & _MASK, 33) * _K1) & _MASK
        v = _weak32(data, i, (v[1] * _K1) & _MASK, (x + w[0]) & _MASK)
        w = _weak32(data, i + 32, (z + w[1]) & _MASK,
                    (y + _word(data, i + 16)) & _MASK)
        x, z = z, x
    mul = _K1 + ((z & 0xFF) << 1)
    w = ((w[0] + ((n - 1) & 63)) & _MASK, w[1])
    v = ((v[0] + w[0]) & _MASK, v[1])
    w = ((w[0] + v[0]) & _MASK, w[1])
    x = (_rot((x + y + v[0] + _word(data, last + 8)) & _MASK, 37) *
         mul) & _MASK
    y = (_rot((y + v[1] + _word(data, last + 48)) & _MASK, 42) * mul) & _MASK
    x ^= (w[1] * 9) & _MASK
    y = (y + v[0] * 9 + _word(data, last + 40)) & _MASK
    z = (_rot((z + w[0]) & _MASK, 33) * mul) & _MASK
    v = _weak32(data, last, (v[1] * mul) & _MASK, (x + w[0]) & _MASK)
    w = _weak32(data, last + 32, (z + w[1]) & _MASK,
                (y + _word(data, last + 16)) & _MASK)
    x, z = z, x
    return _hash16((_hash16(v[0], w[0], mul) + _shift_mix(y) * _K0 + z) &
                   _MASK, (_hash16(v[1], w[1], mul) + x) & _MASK, mul)


def fingerprint64(data):
    """FarmHash Fingerprint64 of `bytes` (or a str, UTF-8 encoded)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    n = len(data)
    if n <= 16:
        return _len_0_to_16(data)
    if n <= 32:
        return _len_17_to_32(data)
    if n <= 64:
        return _len_33_to_64(data)
    return _long(data)


def fingerprint_cat64(fp1, fp2):
    """TensorFlow's `FingerprintCat64`: combine two fingerprints (order
    matters), as used for feature crosses."""
    result = fp1 ^ _CAT_MUL
    result ^= (_shift_mix((fp2 * _CAT_MUL) & _MASK) * _CAT_MUL) & _MASK
    result = (result * _CAT_MUL) & _MASK
    result = (_shift_mix(result) * _CAT_MUL) & _MASK
    return _shift_mix(result)


def _rotl(value, shift):
    return ((value << shift) | (value >> (64 - shift))) & _MASK


def _sip_round(v0, v1, v2, v3):
    v0 = (v0 + v1) & _MASK
    v1 = _rotl(v1, 13) ^ v0
    v0 = _rotl(v0, 32)
    v2 = (v2 + v3) & _MASK
    v3 = _rotl(v3, 16) ^ v2
    v0 = (v0 + v3) & _MASK
    v3 = _rotl(v3, 21) ^ v0
    v2 = (v2 + v1) & _MASK
    v1 = _rotl(v1, 17) ^ v2
    v2 = _rotl(v2, 32)
    return v0, v1, v2, v3


def siphash24(key, data):
    """SipHash-2-4 of `data` with the 128-bit `key` given as two uint64
    (TensorFlow's `to_hash_bucket_strong`, used for salted lookups)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    k0, k1 = (int(k) & _MASK for k in key)
    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D,
         k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573]
    n = len(data)
    tail = n - n % 8
    blocks = [_word(data, i) for i in range(0, tail, 8)]
    blocks.append(((n & 0xFF) << 56) | int.from_bytes(data[tail:], "little"))
    for m in blocks:
        v[3] ^= m
        v = list(_sip_round(*_sip_round(*v)))
        v[0] ^= m
    v[2] ^= 0xFF
    for _ in range(4):
        v = list(_sip_round(*v))
    return v[0] ^ v[1] ^ v[2] ^ v[3]
