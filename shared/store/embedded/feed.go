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

// wireValue is one attribute value in DynamoDB's JSON protocol. The store
// writes strings, numbers and binaries only; other types are left out.
type wireValue struct {
	S *string `json:"S,omitempty"`
	N *string `json:"N,omitempty"`
	B []byte  `json:"B,omitempty"`
}

type wireItem map[string]wireValue

func (it wireItem) attributes() map[string]types.AttributeValue {
	out := make(map[string]types.AttributeValue, len(it))
	for name, v := range it {
		switch {
		case v.S != nil:
			out[name] = &types.AttributeValueMemberS{Value: *v.S}
		case v.N != nil:
			out[name] = &types.AttributeValueMemberN{Value: *v.N}
		case v.B != nil:
			out[name] = &types.AttributeValueMemberB{Value: v.B}
		}
	}
	return out
}

func (it wireItem) key() store.Key {
	var k store.Key
	if v := it["PK"].S; v != nil {
		k.PK = *v
	}
	if v := it["SK"].S; v != nil {
		k.SK = *v
	}
	return k
}

type wireWrite struct {
	TableName string   `json:"TableName"`
	Item      wireItem `json:"Item"`
	Key       wireItem `json:"Key"`
}

// changesOf turns a successful write request (and its response) into the
// changes it made, table by table in request order.
func (s *Server) changesOf(op string, body, response []byte) iter.Seq2[string, []store.Change] {
	return func(yield func(string, []store.Change) bool) {
		var tables []string
		by := map[string][]store.Change{}
		add := func(table string, c store.Change) {
			if _, seen := by[table]; !seen {
				tables = append(tables, table)
			}
			by[table] = append(by[table], c)
		}
		put := func(table string, it wireItem) {
			rec, err := store.RecordOf(it.attributes())
			if err == nil {
				add(table, store.Change{Key: it.key(), New: rec})
			}
		}
		switch op {
		case "PutItem":
			var w wireWrite
			if json.Unmarshal(body, &w) == nil {
				put(w.TableName, w.Item)
			}
		case "DeleteItem":
			var w wireWrite
			if json.Unmarshal(body, &w) == nil {
				add(w.TableName, store.Change{Key: w.Key.key()})
			}
		case "UpdateItem":
			var w wireWrite
			if json.Unmarshal(body, &w) == nil {
				add(w.TableName, s.current(w.TableName, w.Key))
			}
		case "TransactWriteItems":
			var tx struct {
				TransactItems []struct{ Put, Delete, Update *wireWrite }
			}
			if json.Unmarshal(body, &tx) != nil {
				return
			}
			for _, it := range tx.TransactItems {
				switch {
				case it.Put != nil:
					put(it.Put.TableName, it.Put.Item)
				case it.Delete != nil:
					add(it.Delete.TableName, store.Change{Key: it.Delete.Key.key()})
				case it.Update != nil:
					add(it.Update.TableName, s.current(it.Update.TableName, it.Update.Key))
				}
			}
		case "BatchWriteItem":
			type request struct {
				PutRequest    *struct{ Item wireItem }
				DeleteRequest *struct{ Key wireItem }
			}
			var in struct{ RequestItems map[string][]request }
			var out struct{ UnprocessedItems map[string][]request }
			if json.Unmarshal(body, &in) != nil {
				return
			}
			_ = json.Unmarshal(response, &out)
			unprocessed := map[store.Key]bool{}
			for _, reqs := range out.UnprocessedItems {
				for _, r := range reqs {
					if r.PutRequest != nil {
						unprocessed[r.PutRequest.Item.key()] = true
					} else if r.DeleteRequest != nil {
						unprocessed[r.DeleteRequest.Key.key()] = true
					}
				}
			}
			for table, reqs := range in.RequestItems {
				for _, r := range reqs {
					switch {
					case r.PutRequest != nil && !unprocessed[r.PutRequest.Item.key()]:
						put(table, r.PutRequest.Item)
					case r.DeleteRequest != nil && !unprocessed[r.DeleteRequest.Key.key()]:
						add(table, store.Change{Key: r.DeleteRequest.Key.key()})
					}
				}
			}
		}
		for _, t := range tables {
			if !yield(t, by[t]) {
				return
			}
		}
	}
}

// current reads an item after an UpdateItem, whose request does not carry
// the new image, straight from the embedded server.
func (s *Server) current(table string, key wireItem) store.Change {
	c := store.Change{Key: key.key()}
	body, err := json.Marshal(map[string]any{"TableName": table, "Key": key, "ConsistentRead": true})
	if err != nil {
		return c
	}
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.GetItem")
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	res := httptest.NewRecorder()
	s.ddb.ServeHTTP(res, req)
	var out struct{ Item wireItem }
	if res.Code != http.StatusOK || json.Unmarshal(res.Body.Bytes(), &out) != nil || out.Item == nil {
		return c
	}
	if rec, err := store.RecordOf(out.Item.attributes()); err == nil {
		c.New = rec
	}
	return c
}
