package embedded

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// partitions answers the store's Query shapes without minidyn's Query,
// which parses the key condition against every item of the table, so that
// a Query's cost grows with the table (a few milliseconds at a few hundred
// items, the live fan-out's subscriber lookup among them). The embedded
// server keeps every item of a PK/SK table in a partition index as
// successful writes leave it, and answers a Query of the form
// "PK = :pk" or "PK = :pk AND begins_with(SK, :p)" (no limit, filter,
// projection, index or start key) from it, as DynamoDB would: the
// partition's items in SK byte order. Anything else goes to minidyn.
type partitions struct {
	mu     sync.RWMutex
	tables map[string]map[string]map[string]rawItem // table → PK → SK → item
}

func (p *partitions) created(body []byte) {
	var in struct {
		TableName string
		KeySchema []struct{ AttributeName, KeyType string }
	}
	if json.Unmarshal(body, &in) != nil || len(in.KeySchema) != 2 {
		return
	}
	for _, k := range in.KeySchema {
		if !(k.AttributeName == "PK" && k.KeyType == "HASH" || k.AttributeName == "SK" && k.KeyType == "RANGE") {
			return
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tables == nil {
		p.tables = map[string]map[string]map[string]rawItem{}
	}
	p.tables[in.TableName] = map[string]map[string]rawItem{}
}

func (p *partitions) deleted(body []byte) {
	var in struct{ TableName string }
	if json.Unmarshal(body, &in) == nil {
		p.mu.Lock()
		delete(p.tables, in.TableName)
		p.mu.Unlock()
	}
}

func (p *partitions) apply(ws []written) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, w := range ws {
		t := p.tables[w.table]
		if t == nil {
			continue
		}
		if w.item == nil {
			delete(t[w.key.PK], w.key.SK)
			continue
		}
		part := t[w.key.PK]
		if part == nil {
			part = map[string]rawItem{}
			t[w.key.PK] = part
		}
		part[w.key.SK] = w.item
	}
}

// query answers a Query of the two shapes from the index; false when it is
// another shape, or the table is not indexed, and minidyn must answer.
func (p *partitions) query(w http.ResponseWriter, body []byte) bool {
	var in struct {
		TableName                 string
		KeyConditionExpression    string
		ExpressionAttributeValues map[string]struct{ S *string }
		ExpressionAttributeNames  map[string]string
		Limit                     *int
		ExclusiveStartKey         map[string]any
		FilterExpression          string
		ProjectionExpression      string
		IndexName                 string
		Select                    string
		ScanIndexForward          *bool
	}
	if json.Unmarshal(body, &in) != nil || in.Limit != nil || in.ExclusiveStartKey != nil || in.FilterExpression != "" ||
		in.ProjectionExpression != "" || in.IndexName != "" || in.Select != "" || len(in.ExpressionAttributeNames) > 0 ||
		(in.ScanIndexForward != nil && !*in.ScanIndexForward) {
		return false
	}
	pk, prefix := in.ExpressionAttributeValues[":pk"].S, (*string)(nil)
	switch in.KeyConditionExpression {
	case "PK = :pk":
		if len(in.ExpressionAttributeValues) != 1 {
			return false
		}
	case "PK = :pk AND begins_with(SK, :p)":
		if prefix = in.ExpressionAttributeValues[":p"].S; prefix == nil || len(in.ExpressionAttributeValues) != 2 {
			return false
		}
	default:
		return false
	}
	if pk == nil {
		return false
	}
	p.mu.RLock()
	t, ok := p.tables[in.TableName]
	var items []rawItem
	if ok {
		part := t[*pk]
		sks := make([]string, 0, len(part))
		for sk := range part {
			if prefix == nil || strings.HasPrefix(sk, *prefix) {
				sks = append(sks, sk)
			}
		}
		slices.Sort(sks)
		items = make([]rawItem, len(sks))
		for i, sk := range sks {
			items[i] = part[sk]
		}
	}
	p.mu.RUnlock()
	if !ok {
		return false
	}
	out, err := json.Marshal(struct {
		Count        int
		Items        []rawItem
		ScannedCount int
	}{len(items), items, len(items)})
	if err != nil {
		return false
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	_, _ = w.Write(out)
	return true
}
