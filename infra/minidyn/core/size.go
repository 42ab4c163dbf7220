package core

import (
	"strings"

	"github.com/truora/minidyn/types"
)

// xqtour patch: DynamoDB's size limits, measured the way DynamoDB measures
// them, so the embedded server refuses what AWS refuses.

const (
	// MaxItemBytes is the largest item DynamoDB stores: 400 KB, attribute
	// names and values together.
	MaxItemBytes = 400 * 1024
	// MaxPageBytes is how much one Query or Scan page reads at most: 1 MB.
	// A page stops there and answers LastEvaluatedKey.
	MaxPageBytes = 1 << 20
)

// ItemSize is an item's size as DynamoDB counts it: each attribute's name
// (UTF-8 bytes) plus its value.
func ItemSize(item map[string]*types.Item) int {
	n := 0
	for name, v := range item {
		n += len(name) + valueSize(v)
	}

	return n
}

// valueSize follows DynamoDB's rules: strings and binaries by their bytes,
// numbers one byte per two significant digits plus one, booleans and nulls
// one byte, lists and maps three bytes plus one per element plus the
// elements (and a map's keys).
func valueSize(v *types.Item) int {
	if v == nil {
		return 0
	}

	switch {
	case v.S != nil:
		return len(*v.S)
	case v.N != nil:
		return numberSize(*v.N)
	case v.B != nil:
		return len(v.B)
	case v.BOOL != nil, v.NULL != nil:
		return 1
	case v.SS != nil:
		n := 0
		for _, s := range v.SS {
			n += len(*s)
		}

		return n
	case v.NS != nil:
		n := 0
		for _, s := range v.NS {
			n += numberSize(*s)
		}

		return n
	case v.BS != nil:
		n := 0
		for _, b := range v.BS {
			n += len(b)
		}

		return n
	case v.L != nil:
		n := 3
		for _, e := range v.L {
			n += 1 + valueSize(e)
		}

		return n
	case v.M != nil:
		n := 3
		for k, e := range v.M {
			n += 1 + len(k) + valueSize(e)
		}

		return n
	}

	return 0
}

// numberSize is 1 byte per two significant digits, plus 1.
func numberSize(s string) int {
	s = strings.TrimLeft(s, "+-")
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}

	digits := strings.Trim(strings.Replace(s, ".", "", 1), "0")

	return (len(digits)+1)/2 + 1
}
