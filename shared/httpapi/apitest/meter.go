package apitest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// Meter adds up what DynamoDB would bill for the calls the API makes, as
// DynamoDB computes it from the items read and written: a strongly
// consistent read costs one read unit per 4 KB of each item (GetItem,
// BatchGetItem) or of each Query page, a write one write unit per KB of the
// item (two in a transaction). Write sizes of UpdateItem are counted as one
// unit. It sits between the store and the embedded server as an HTTP proxy,
// so the store under test is the real one.
type Meter struct {
	mu                    sync.Mutex
	readUnits, writeUnits float64
	itemsRead, requests   int
}

// Units returns the read and write units counted since the last Reset.
func (m *Meter) Units() (read, write float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.readUnits, m.writeUnits
}

// ItemsRead is how many items the reads returned since the last Reset.
func (m *Meter) ItemsRead() int { m.mu.Lock(); defer m.mu.Unlock(); return m.itemsRead }

// Requests is how many DynamoDB calls were made since the last Reset.
func (m *Meter) Requests() int { m.mu.Lock(); defer m.mu.Unlock(); return m.requests }

// Reset starts counting afresh.
func (m *Meter) Reset() {
	m.mu.Lock()
	m.readUnits, m.writeUnits, m.itemsRead, m.requests = 0, 0, 0, 0
	m.mu.Unlock()
}

// NewMetered is New with the store's calls counted by the returned Meter.
func NewMetered(t testing.TB, opts ...httpapi.Option) (*Server, *Meter) {
	t.Helper()
	_, cfg, db := storetest.Start(t)
	target, err := url.Parse(db.URL)
	if err != nil {
		t.Fatal(err)
	}
	m := &Meter{}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.Transport = meterTransport{m: m}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	cfg.Endpoint = srv.URL
	st, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return newServer(t, st, db, opts...), m
}

type meterTransport struct{ m *Meter }

func (mt meterTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var in []byte
	if req.Body != nil {
		in, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(in))
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	out, _ := io.ReadAll(res.Body)
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(out))
	op := req.Header.Get("X-Amz-Target")
	op = op[strings.LastIndexByte(op, '.')+1:]
	if res.StatusCode == http.StatusOK {
		mt.m.count(op, in, out)
	}
	return res, nil
}

type attrs = map[string]map[string]json.RawMessage

func (m *Meter) count(op string, in, out []byte) {
	var read, write float64
	items := 0
	switch op {
	case "GetItem":
		var r struct{ Item attrs }
		_ = json.Unmarshal(out, &r)
		if r.Item != nil {
			read, items = units(itemSize(r.Item), 4096), 1
		}
	case "BatchGetItem":
		var r struct{ Responses map[string][]attrs }
		_ = json.Unmarshal(out, &r)
		for _, list := range r.Responses {
			for _, it := range list {
				read += units(itemSize(it), 4096)
				items++
			}
		}
	case "Query", "Scan":
		var r struct{ Items []attrs }
		_ = json.Unmarshal(out, &r)
		size := 0
		for _, it := range r.Items {
			size += itemSize(it)
		}
		read, items = max(1, units(size, 4096)), len(r.Items)
	case "PutItem":
		var r struct{ Item attrs }
		_ = json.Unmarshal(in, &r)
		write = units(itemSize(r.Item), 1024)
	case "UpdateItem", "DeleteItem":
		write = 1
	case "TransactWriteItems":
		var r struct {
			TransactItems []struct {
				Put                            *struct{ Item attrs }
				Delete, Update, ConditionCheck json.RawMessage
			}
		}
		_ = json.Unmarshal(in, &r)
		for _, ti := range r.TransactItems {
			if ti.Put != nil {
				write += 2 * units(itemSize(ti.Put.Item), 1024)
			} else {
				write += 2
			}
		}
	case "BatchWriteItem":
		var r struct {
			RequestItems map[string][]struct{ PutRequest *struct{ Item attrs } }
		}
		_ = json.Unmarshal(in, &r)
		for _, list := range r.RequestItems {
			for _, w := range list {
				if w.PutRequest != nil {
					write += units(itemSize(w.PutRequest.Item), 1024)
				} else {
					write++
				}
			}
		}
	}
	m.mu.Lock()
	m.readUnits += read
	m.writeUnits += write
	m.itemsRead += items
	m.requests++
	m.mu.Unlock()
}

func units(size, unit int) float64 { return math.Ceil(float64(max(size, 1)) / float64(unit)) }

// itemSize is an item's size as DynamoDB bills it: attribute names plus values.
func itemSize(it attrs) int {
	n := 0
	for name, v := range it {
		n += len(name) + valueSize(v)
	}
	return n
}

func valueSize(v map[string]json.RawMessage) int {
	for typ, raw := range v {
		switch typ {
		case "S":
			var s string
			_ = json.Unmarshal(raw, &s)
			return len(s)
		case "N":
			var s string
			_ = json.Unmarshal(raw, &s)
			return 1 + (len(s)+1)/2
		case "B":
			var s string
			_ = json.Unmarshal(raw, &s)
			b, _ := base64.StdEncoding.DecodeString(s)
			return len(b)
		case "M":
			var m attrs
			_ = json.Unmarshal(raw, &m)
			return 3 + itemSize(m)
		case "L":
			var l []map[string]json.RawMessage
			_ = json.Unmarshal(raw, &l)
			n := 3
			for _, e := range l {
				n += 1 + valueSize(e)
			}
			return n
		}
	}
	return 1
}
