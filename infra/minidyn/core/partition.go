package core

// xqtour patch: this file is not part of upstream minidyn. It keeps each
// partition's keys in order so that writes and Queries cost what the
// partition holds, not what the table holds, and it gives transactions and
// a persistence layer item-level access (see NOTES.md).

import (
	"fmt"
	"regexp"
	"slices"
	"sort"

	"github.com/truora/minidyn/types"
)

// hashOf is the partition an item belongs to: its hash key as GetKey prints it.
func (t *Table) hashOf(item map[string]*types.Item) string {
	val, err := getItemValue(item, t.KeySchema.HashKey, t.AttributesDef[t.KeySchema.HashKey])
	if err != nil {
		return ""
	}

	if s, ok := val.(string); ok {
		return s // as %v prints it, without the cost
	}

	return fmt.Sprintf("%v", val)
}

func (t *Table) addKey(key string, item map[string]*types.Item) {
	if t.partitions == nil {
		t.rebuildPartitions()
	}

	h := t.hashOf(item)
	keys := t.partitions[h]

	if n := len(keys); n == 0 || keys[n-1] < key { // keys restored in order
		t.partitions[h] = append(keys, key)
	} else if pos, found := slices.BinarySearch(keys, key); !found {
		t.partitions[h] = slices.Insert(keys, pos, key)
	}

	t.sortedStale = true
}

// removeKey deletes key (whose item is item) from the table's data and order.
func (t *Table) removeKey(key string, item map[string]*types.Item) {
	delete(t.Data, key)

	if t.partitions == nil {
		t.rebuildPartitions()
	}

	h := t.hashOf(item)
	keys := t.partitions[h]

	if pos, found := slices.BinarySearch(keys, key); found {
		keys = slices.Delete(keys, pos, pos+1)
		if len(keys) == 0 {
			delete(t.partitions, h)
		} else {
			t.partitions[h] = keys
		}
	}

	t.sortedStale = true

	if t.Journal != nil {
		t.Journal(key, nil)
	}
}

// sortedKeys returns every key in order, rebuilding the list after changes:
// only a Scan needs the whole table's order.
func (t *Table) sortedKeys() []string {
	if t.sortedStale || len(t.SortedKeys) != len(t.Data) {
		keys := make([]string, 0, len(t.Data))
		for k := range t.Data {
			keys = append(keys, k)
		}

		sort.Strings(keys)
		t.SortedKeys = keys
		t.sortedStale = false
	}

	return t.SortedKeys
}

func (t *Table) rebuildPartitions() {
	t.partitions = map[string][]string{}

	for k, item := range t.Data {
		h := t.hashOf(item)
		t.partitions[h] = append(t.partitions[h], k)
	}

	for _, keys := range t.partitions {
		sort.Strings(keys)
	}
}

// hashEquality finds "name = :value" in a key condition expression.
var hashEquality = regexp.MustCompile(`(?:^|[\s(])(#?[A-Za-z0-9_.\-]+)\s*=\s*(:[A-Za-z0-9_]+)`)

// queryPartition finds the partition a Query on the primary index reads:
// DynamoDB requires the key condition to name the hash key with "=". When the
// expression is not understood the Query reads the whole table as before, and
// either way every item is still matched against the full expression.
func (t *Table) queryPartition(input QueryInput) (string, bool) {
	for _, m := range hashEquality.FindAllStringSubmatch(input.KeyConditionExpression, -1) {
		name := m[1]
		if alias, ok := input.Aliases[name]; ok {
			name = alias
		}

		if name != t.KeySchema.HashKey {
			continue
		}

		val, ok := input.ExpressionAttributeValues[m[2]]
		if !ok {
			return "", false
		}

		goVal, ok := getGoValue(val, t.AttributesDef[t.KeySchema.HashKey])
		if !ok {
			return "", false
		}

		return fmt.Sprintf("%v", goVal), true
	}

	return "", false
}

// Key returns the internal key of an item (or of a key map).
func (t *Table) Key(item map[string]*types.Item) (string, error) {
	return t.KeySchema.GetKey(t.AttributesDef, item)
}

// ItemImage returns a deep copy of the item stored under key, or nil.
func (t *Table) ItemImage(key string) map[string]*types.Item {
	item, ok := t.Data[key]
	if !ok {
		return nil
	}

	return deepCopyItemMap(item)
}

// ReplaceItem makes the item under key be item (nil: absent), keeping the
// order and secondary indexes in step. It checks no condition: it undoes a
// transaction's step and restores persisted items.
func (t *Table) ReplaceItem(key string, item map[string]*types.Item) error {
	cur, exists := t.Data[key]
	if exists {
		for _, index := range t.Indexes {
			if err := index.delete(key, cur); err != nil {
				return err
			}
		}
	}

	if item == nil {
		if exists {
			t.removeKey(key, cur)
		}

		return nil
	}

	t.setItem(key, item)

	for _, index := range t.Indexes {
		if err := index.putData(key, item); err != nil {
			return err
		}
	}

	return nil
}

// sortLowerBound finds a string sort key's lower bound in a key condition:
// "begins_with(name, :v)", "name >= :v", "name > :v", "name = :v" or
// "name BETWEEN :v AND …".
var sortLowerBound = regexp.MustCompile(`begins_with\(\s*(#?[A-Za-z0-9_.\-]+)\s*,\s*(:[A-Za-z0-9_]+)\s*\)|(?:^|[\s(])(#?[A-Za-z0-9_.\-]+)\s*(?:>=|>|=|(?i:\s+BETWEEN\s+))\s*(:[A-Za-z0-9_]+)`)

// seekLowerBound drops the keys of a partition (in order, as Query reads
// them forward) that sort before the lower bound the key condition puts on
// a string sort key: none of them can match, and a Query of a large
// partition's last range would otherwise match every item before it.
func (t *Table) seekLowerBound(input QueryInput, keys []string) []string {
	rangeKey := t.KeySchema.RangeKey
	if rangeKey == "" || t.AttributesDef[rangeKey] != "S" {
		return keys
	}

	hash, ok := t.queryPartition(input)
	if !ok {
		return keys
	}

	for _, m := range sortLowerBound.FindAllStringSubmatch(input.KeyConditionExpression, -1) {
		name, value := m[1], m[2]
		if name == "" {
			name, value = m[3], m[4]
		}

		if alias, ok := input.Aliases[name]; ok {
			name = alias
		}

		if name != rangeKey {
			continue
		}

		v, ok := input.ExpressionAttributeValues[value]
		if !ok || v.S == nil {
			return keys
		}

		// Keys are "<hash>.<range>": within one partition they sort as
		// their range keys do.
		return keys[sort.SearchStrings(keys, hash+"."+*v.S):]
	}

	return keys
}
