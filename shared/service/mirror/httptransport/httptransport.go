// Package httptransport is the mirror's Transport over net/http: how a
// stack posts batches, claims and takeover notices to another stack. It is
// outbound HTTP, not the HTTP API's business (shared/httpapi serves
// requests; this makes them), and it keeps net/http out of
// shared/service/mirror.
package httptransport

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"

	"github.com/xqtour/xqtour/shared/service/mirror"
)

// maxAnswer is how much of another stack's answer is read: its error body,
// or a claim's or a batch's small JSON answer.
const maxAnswer = 1 << 20

// Transport posts to another stack with its client.
type Transport struct{ client *http.Client }

// New is a Transport whose requests each wait mirror.Timeout at most.
func New() Transport { return Transport{client: &http.Client{Timeout: mirror.Timeout}} }

// errorBody is the JSON error body every xqtour stack answers a failure
// with (the OpenAPI document's Error): its code and message.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// Post sends body and reads the first MiB of the answer, with its error's
// code and message (mirror.Transport).
func (t Transport) Post(ctx context.Context, url, contentType string, headers map[string]string, body []byte) (mirror.Answer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return mirror.Answer{}, err
	}
	req.Header.Set("Content-Type", contentType)
	for k, v := range headers {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return mirror.Answer{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	var e errorBody
	_ = json.Unmarshal(data, &e)
	return mirror.Answer{Status: resp.StatusCode, Body: data, Code: e.Error.Code, Message: e.Error.Message}, err
}
