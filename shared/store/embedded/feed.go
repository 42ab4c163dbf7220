package embedded

import (
	"bytes"
	"encoding/json"
	"iter"
	"net/http"
	"net/http/httptest"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/xqtour/xqtour/shared/store"
)

// writes reports whether a DynamoDB operation writes items (and so feeds).
func writes(op string) bool {
	switch op {
	case "PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem":
		return true
	}
	return false
}

// recorder passes a response through while keeping its status and body.
type recorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (r *recorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(p []byte) (int, error) {
	r.body.Write(p)
	return r.ResponseWriter.Write(p)
}

// rawItem is an item in DynamoDB's JSON protocol, each value kept as sent.
type rawItem map[string]json.RawMessage

// wireValue is one attribute value decoded. The store writes strings,
// numbers and binaries only; other types are left out of Records.
type wireValue struct {
	S *string `json:"S,omitempty"`
	N *string `json:"N,omitempty"`
	B []byte  `json:"B,omitempty"`
}

func (it rawItem) str(name string) string {
	var v wireValue
	if json.Unmarshal(it[name], &v) != nil || v.S == nil {
		return ""
	}
	return *v.S
}

func (it rawItem) key() store.Key { return store.Key{PK: it.str("PK"), SK: it.str("SK")} }

func (it rawItem) record() (*store.Record, error) {
	out := make(map[string]types.AttributeValue, len(it))
	for name, raw := range it {
		var v wireValue
		if json.Unmarshal(raw, &v) != nil {
			continue
		}
		switch {
		case v.S != nil:
			out[name] = &types.AttributeValueMemberS{Value: *v.S}
		case v.N != nil:
			out[name] = &types.AttributeValueMemberN{Value: *v.N}
		case v.B != nil:
			out[name] = &types.AttributeValueMemberB{Value: v.B}
		}
	}
	return store.RecordOf(out)
}

// written is one item a successful write changed: its new attributes, or
// nil when it was removed.
type written struct {
	table string
	key   store.Key
	item  rawItem
}

type wireWrite struct {
	TableName string  `json:"TableName"`
	Item      rawItem `json:"Item"`
	Key       rawItem `json:"Key"`
}

// writtenBy lists what a successful write request changed, in request order.
func (s *Server) writtenBy(op string, body, response []byte) []written {
	var out []written
	switch op {
	case "PutItem":
		var w wireWrite
		if json.Unmarshal(body, &w) == nil {
			out = append(out, written{w.TableName, w.Item.key(), w.Item})
		}
	case "DeleteItem":
		var w wireWrite
		if json.Unmarshal(body, &w) == nil {
			out = append(out, written{w.TableName, w.Key.key(), nil})
		}
	case "UpdateItem":
		var w wireWrite
		if json.Unmarshal(body, &w) == nil {
			out = append(out, written{w.TableName, w.Key.key(), s.current(w.TableName, w.Key)})
		}
	case "TransactWriteItems":
		var tx struct {
			TransactItems []struct{ Put, Delete, Update *wireWrite }
		}
		if json.Unmarshal(body, &tx) != nil {
			return nil
		}
		for _, it := range tx.TransactItems {
			switch {
			case it.Put != nil:
				out = append(out, written{it.Put.TableName, it.Put.Item.key(), it.Put.Item})
			case it.Delete != nil:
				out = append(out, written{it.Delete.TableName, it.Delete.Key.key(), nil})
			case it.Update != nil:
				out = append(out, written{it.Update.TableName, it.Update.Key.key(), s.current(it.Update.TableName, it.Update.Key)})
			}
		}
	case "BatchWriteItem":
		type request struct {
			PutRequest    *struct{ Item rawItem }
			DeleteRequest *struct{ Key rawItem }
		}
		var in struct{ RequestItems map[string][]request }
		var res struct{ UnprocessedItems map[string][]request }
		if json.Unmarshal(body, &in) != nil {
			return nil
		}
		_ = json.Unmarshal(response, &res)
		type tk struct {
			table string
			key   store.Key
		}
		unprocessed := map[tk]bool{}
		for table, reqs := range res.UnprocessedItems {
			for _, r := range reqs {
				if r.PutRequest != nil {
					unprocessed[tk{table, r.PutRequest.Item.key()}] = true
				} else if r.DeleteRequest != nil {
					unprocessed[tk{table, r.DeleteRequest.Key.key()}] = true
				}
			}
		}
		for table, reqs := range in.RequestItems {
			for _, r := range reqs {
				switch {
				case r.PutRequest != nil && !unprocessed[tk{table, r.PutRequest.Item.key()}]:
					out = append(out, written{table, r.PutRequest.Item.key(), r.PutRequest.Item})
				case r.DeleteRequest != nil && !unprocessed[tk{table, r.DeleteRequest.Key.key()}]:
					out = append(out, written{table, r.DeleteRequest.Key.key(), nil})
				}
			}
		}
	}
	return out
}

// changes groups what a write changed into the feed's records, table by table.
func changes(ws []written) iter.Seq2[string, []store.Change] {
	return func(yield func(string, []store.Change) bool) {
		var tables []string
		by := map[string][]store.Change{}
		for _, w := range ws {
			c := store.Change{Key: w.key}
			if w.item != nil {
				rec, err := w.item.record()
				if err != nil {
					continue
				}
				c.New = rec
			}
			if _, seen := by[w.table]; !seen {
				tables = append(tables, w.table)
			}
			by[w.table] = append(by[w.table], c)
		}
		for _, t := range tables {
			if !yield(t, by[t]) {
				return
			}
		}
	}
}

// current reads an item after an UpdateItem, whose request does not carry
// the new image, straight from minidyn; nil when it is not there.
func (s *Server) current(table string, key rawItem) rawItem {
	body, err := json.Marshal(map[string]any{"TableName": table, "Key": key, "ConsistentRead": true})
	if err != nil {
		return nil
	}
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.GetItem")
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	res := httptest.NewRecorder()
	s.ddb.ServeHTTP(res, req)
	var out struct{ Item rawItem }
	if res.Code != http.StatusOK || json.Unmarshal(res.Body.Bytes(), &out) != nil {
		return nil
	}
	return out.Item
}
