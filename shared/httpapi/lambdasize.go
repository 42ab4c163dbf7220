package httpapi

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/core"
)

// MaxLambdaResponse is the largest payload a synchronously invoked Lambda
// function may return: "6 MB", which Lambda counts as 6,291,556 bytes of the
// JSON it hands back. A larger one fails the invocation
// (Function.ResponseSizeTooLarge) and API Gateway answers 502.
const MaxLambdaResponse = 6_291_556

// LimitHeader marks a response the local stack replaced because AWS would
// have failed it; its value names the limit and the size. Deployed
// functions never send it.
const LimitHeader = "X-Local-Limit"

// LambdaResponseSize is the size of the payload a function behind the HTTP
// API returns for this response, as aws-lambda-go-api-proxy builds it (an
// APIGatewayV2HTTPResponse: status, headers, cookies, the body as a string,
// base64 when it is not UTF-8) and aws-lambda-go encodes it (JSON, which
// escapes every quote, backslash and control character of the body). A
// JSON body of 6.8 MB is 8 MB as Lambda counts it.
func LambdaResponseSize(status int, header http.Header, body []byte) (int, error) {
	w := core.NewProxyResponseWriterV2()
	for k, v := range header {
		w.Header()[k] = v
	}
	w.WriteHeader(status)
	if _, err := w.Write(body); err != nil {
		return 0, err
	}
	resp, err := w.GetProxyResponse()
	if err != nil {
		return 0, err
	}
	return encodedSize(resp)
}

// encodedSize is the length of resp as the Lambda runtime writes it.
func encodedSize(resp events.APIGatewayV2HTTPResponse) (int, error) {
	var n byteCounter
	enc := json.NewEncoder(&n)
	enc.SetEscapeHTML(false) // aws-lambda-go's default
	err := enc.Encode(resp)
	return int(n), err
}

type byteCounter int

func (c *byteCounter) Write(p []byte) (int, error) { *c += byteCounter(len(p)); return len(p), nil }

// lambdaLimit serves next as a Lambda function would and answers as API
// Gateway does when Lambda fails the invocation: the response is built by
// the proxy's own writer, and one over MaxLambdaResponse as Lambda encodes
// it — or one the proxy cannot convert (no status written) — becomes 502
// {"message":"Internal Server Error"}, logged with its size. The local stack
// and the test harness serve the API through it, so what would fail on AWS
// fails there too; deployed functions leave the check to Lambda.
func lambdaLimit(next http.Handler, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := core.NewProxyResponseWriterV2()
		next.ServeHTTP(rec, r)
		resp, err := rec.GetProxyResponse()
		size := 0
		if err == nil {
			size, err = encodedSize(resp)
		}
		if err != nil || size > MaxLambdaResponse {
			limit := fmt.Sprintf("Function.ResponseSizeTooLarge: %d bytes as Lambda encodes the response, over %d", size, MaxLambdaResponse)
			if err != nil {
				limit = "the proxy cannot convert the response: " + err.Error()
			}
			log.Error("lambda would fail this response", "method", r.Method, "path", r.URL.Path, "limit", limit)
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set(LimitHeader, limit)
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte(`{"message":"Internal Server Error"}`))
			return
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		body := []byte(resp.Body)
		if resp.IsBase64Encoded {
			if body, err = base64.StdEncoding.DecodeString(resp.Body); err != nil {
				http.Error(w, "base64", http.StatusInternalServerError) // the proxy encoded it just now
				return
			}
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(body)
	})
}
