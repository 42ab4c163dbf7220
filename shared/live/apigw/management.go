// Package apigw posts live messages to WebSocket connections through API
// Gateway's Management API. It is the live fan-out's one call to AWS, kept
// apart from package live so that live itself imports no AWS SDK module.
package apigw

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/config"

	"github.com/xqtour/xqtour/shared/live"
)

// ManagementAPI posts to WebSocket connections through API Gateway's
// Management API (POST <stage URL>/@connections/<id>, signed with SigV4 for
// execute-api). It is the one call the fan-out makes, so it is a signed
// HTTP request rather than a further SDK module.
type ManagementAPI struct {
	endpoint string // https://<api>.execute-api.<region>.amazonaws.com/<stage>
	region   string
	creds    aws.CredentialsProvider
	signer   *v4.Signer
	client   *http.Client
}

// NewManagementAPI builds the poster for the stage whose client URL is
// websocketURL (WEBSOCKET_URL: wss://…/<stage>; ws:// gives http://, for
// tests), with the function's AWS credentials and region.
func NewManagementAPI(ctx context.Context, websocketURL string) (*ManagementAPI, error) {
	u, err := url.Parse(websocketURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("apigw: WEBSOCKET_URL %q is not a WebSocket stage URL", websocketURL)
	}
	switch u.Scheme {
	case "wss":
		u.Scheme = "https"
	case "ws":
		u.Scheme = "http"
	default:
		return nil, fmt.Errorf("apigw: WEBSOCKET_URL %q: want wss://", websocketURL)
	}
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, fmt.Errorf("live: load AWS config: %w", err)
	}
	return &ManagementAPI{endpoint: strings.TrimSuffix(u.String(), "/"), region: cfg.Region, creds: cfg.Credentials,
		signer: v4.NewSigner(), client: &http.Client{Timeout: 5 * time.Second}}, nil
}

// Post sends data to one connection; API Gateway's 410 GoneException is ErrGone.
func (m *ManagementAPI) Post(ctx context.Context, connection string, data []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.endpoint+"/@connections/"+url.PathEscape(connection), bytes.NewReader(data))
	if err != nil {
		return err
	}
	creds, err := m.creds.Retrieve(ctx)
	if err != nil {
		return fmt.Errorf("live: credentials: %w", err)
	}
	sum := sha256.Sum256(data)
	if err := m.signer.SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), "execute-api", m.region, time.Now()); err != nil {
		return fmt.Errorf("live: sign: %w", err)
	}
	res, err := m.client.Do(req)
	if err != nil {
		return fmt.Errorf("live: post to %s: %w", connection, err)
	}
	defer res.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(res.Body, 512))
	switch {
	case res.StatusCode == http.StatusGone:
		return live.ErrGone
	case res.StatusCode/100 != 2:
		return fmt.Errorf("live: post to %s: %s %s", connection, res.Status, bytes.TrimSpace(msg))
	}
	return nil
}
