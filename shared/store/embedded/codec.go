package embedded

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/truora/minidyn/server"
	"github.com/truora/minidyn/types"
)

// The log and the snapshot share one binary encoding of items. It is private
// to this package: nothing outside the data directory reads it, and the JSON
// lines of an event export are the portable form.

// Attribute value tags.
const (
	tagS byte = iota + 1
	tagN
	tagB
	tagBOOL
	tagNULL
	tagSS
	tagNS
	tagBS
	tagL
	tagM
)

var errCorrupt = errors.New("embedded: corrupt record")

func putString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func putBytes(b, s []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func putItem(b []byte, item map[string]*types.Item) []byte {
	b = binary.AppendUvarint(b, uint64(len(item)))
	for name, v := range item {
		b = putString(b, name)
		b = putValue(b, v)
	}
	return b
}

func putValue(b []byte, v *types.Item) []byte {
	switch {
	case v == nil:
		return append(b, tagNULL, 1)
	case v.S != nil:
		return putString(append(b, tagS), *v.S)
	case v.N != nil:
		return putString(append(b, tagN), *v.N)
	case v.B != nil:
		return putBytes(append(b, tagB), v.B)
	case v.BOOL != nil:
		return append(b, tagBOOL, boolByte(*v.BOOL))
	case v.NULL != nil:
		return append(b, tagNULL, boolByte(*v.NULL))
	case v.SS != nil:
		b = binary.AppendUvarint(append(b, tagSS), uint64(len(v.SS)))
		for _, s := range v.SS {
			b = putString(b, deref(s))
		}
		return b
	case v.NS != nil:
		b = binary.AppendUvarint(append(b, tagNS), uint64(len(v.NS)))
		for _, s := range v.NS {
			b = putString(b, deref(s))
		}
		return b
	case v.BS != nil:
		b = binary.AppendUvarint(append(b, tagBS), uint64(len(v.BS)))
		for _, s := range v.BS {
			b = putBytes(b, s)
		}
		return b
	case v.L != nil:
		b = binary.AppendUvarint(append(b, tagL), uint64(len(v.L)))
		for _, e := range v.L {
			b = putValue(b, e)
		}
		return b
	default: // M, possibly empty
		return putItem(append(b, tagM), v.M)
	}
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// reader decodes what the put functions wrote; the first error sticks.
// Binary values share the record's buffer (each record is read into its own),
// and values are carved from slabs, not allocated one by one: a restart
// decodes every item of the table.
type reader struct {
	b     []byte
	err   error
	names map[string]string // attribute names, interned
	last  map[string]string // each attribute's string value in the previous item
	items []types.Item      // slab for values
	strs  []string          // slab for string values
}

func (r *reader) newItem() *types.Item {
	if len(r.items) == 0 {
		r.items = make([]types.Item, 256)
	}
	v := &r.items[0]
	r.items = r.items[1:]
	return v
}

func (r *reader) newString(s string) *string {
	if len(r.strs) == 0 {
		r.strs = make([]string, 256)
	}
	p := &r.strs[0]
	r.strs = r.strs[1:]
	*p = s
	return p
}

// name reads an attribute name, keeping one copy of each.
func (r *reader) name() string {
	n := r.count()
	if r.err != nil {
		return ""
	}
	b := r.b[:n]
	r.b = r.b[n:]
	if s, ok := r.names[string(b)]; ok {
		return s
	}
	if r.names == nil {
		r.names = map[string]string{}
	}
	s := string(b)
	r.names[s] = s
	return s
}

// repeat reads the string value of attribute name, reusing the previous
// item's value when it is the same: items come in key order, so an
// attribute such as the partition key, the kind or the version repeats.
func (r *reader) repeat(name string) string {
	n := r.count()
	if r.err != nil {
		return ""
	}
	b := r.b[:n]
	r.b = r.b[n:]
	if prev, ok := r.last[name]; ok && prev == string(b) {
		return prev
	}
	if r.last == nil {
		r.last = map[string]string{}
	}
	v := string(b)
	r.last[name] = v
	return v
}

// shared reads a byte string without copying it out of the record.
func (r *reader) shared() []byte {
	n := r.count()
	if r.err != nil {
		return nil
	}
	out := r.b[:n:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errCorrupt
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a length, refusing one larger than the bytes left could hold.
func (r *reader) count() int {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.err = errCorrupt
		return 0
	}
	return int(n)
}

func (r *reader) bytes() []byte {
	n := r.count()
	if r.err != nil {
		return nil
	}
	out := make([]byte, n)
	copy(out, r.b[:n])
	r.b = r.b[n:]
	return out
}

func (r *reader) string() string {
	n := r.count()
	if r.err != nil {
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *reader) byte() byte {
	if r.err != nil {
		return 0
	}
	if len(r.b) == 0 {
		r.err = errCorrupt
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *reader) item(depth int) map[string]*types.Item {
	n := r.count()
	item := make(map[string]*types.Item, n)
	for i := 0; i < n && r.err == nil; i++ {
		name := r.name()
		item[name] = r.value(depth, name)
	}
	return item
}

// value reads a value; name is its attribute's ("" in a list), under which
// repeat remembers a string value.
func (r *reader) value(depth int, name string) *types.Item {
	if depth > 64 { // DynamoDB nests at most 32 levels
		r.err = errCorrupt
		return nil
	}
	v := r.newItem()
	switch tag := r.byte(); tag {
	case tagS:
		v.S = r.newString(r.repeat(name))
	case tagN:
		v.N = r.newString(r.repeat(name))
	case tagB:
		v.B = r.shared()
	case tagBOOL:
		b := r.byte() == 1
		v.BOOL = &b
	case tagNULL:
		b := r.byte() == 1
		v.NULL = &b
	case tagSS, tagNS:
		n := r.count()
		list := make([]*string, 0, n)
		for i := 0; i < n && r.err == nil; i++ {
			s := r.string()
			list = append(list, &s)
		}
		if tag == tagSS {
			v.SS = list
		} else {
			v.NS = list
		}
	case tagBS:
		n := r.count()
		v.BS = make([][]byte, 0, n)
		for i := 0; i < n && r.err == nil; i++ {
			v.BS = append(v.BS, r.bytes())
		}
	case tagL:
		n := r.count()
		v.L = make([]*types.Item, 0, n)
		for i := 0; i < n && r.err == nil; i++ {
			v.L = append(v.L, r.value(depth+1, ""))
		}
	case tagM:
		v.M = r.item(depth + 1)
	default:
		if r.err == nil {
			r.err = fmt.Errorf("%w: attribute tag %d", errCorrupt, tag)
		}
	}
	return v
}

// Record kinds, the first byte of a record's payload.
const (
	// recChanges: items a write changed (a transaction's all in one record,
	// so a torn record loses all of it or none).
	recChanges byte = 1
	// recSchema: a CreateTable, UpdateTable or DeleteTable request, replayed as sent.
	recSchema byte = 2
)

func encodeChanges(b []byte, changes []server.Change) []byte {
	b = binary.AppendUvarint(append(b, recChanges), uint64(len(changes)))
	for _, c := range changes {
		b = putString(b, c.Table)
		b = putString(b, c.Key)
		if c.Item == nil {
			b = append(b, 0)
			continue
		}
		b = putItem(append(b, 1), c.Item)
	}
	return b
}

func decodeChanges(payload []byte) ([]server.Change, error) {
	r := &reader{b: payload}
	n := r.count()
	out := make([]server.Change, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		c := server.Change{Table: r.string(), Key: r.string()}
		if r.byte() == 1 {
			c.Item = r.item(0)
		}
		out = append(out, c)
	}
	return out, r.err
}

func encodeSchema(op string, body []byte) []byte {
	b := putString([]byte{recSchema}, op)
	return putBytes(b, body)
}

func decodeSchema(payload []byte) (op string, body []byte, err error) {
	r := &reader{b: payload}
	op = r.string()
	body = r.bytes()
	return op, body, r.err
}
