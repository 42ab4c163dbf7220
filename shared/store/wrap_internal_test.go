package store

import (
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A cancelled transaction is a conflict only when a condition failed or
// another transaction interfered; a throttled item is ErrThrottled (429 with
// Retry-After, retried), and a validation failure is a fault, not a 409.
func TestWrapTransactionCancellationReasons(t *testing.T) {
	cancelled := func(codes ...string) error {
		e := &types.TransactionCanceledException{Message: aws.String("cancelled")}
		for _, c := range codes {
			e.CancellationReasons = append(e.CancellationReasons, types.CancellationReason{Code: aws.String(c)})
		}
		return fmt.Errorf("operation error: %w", e)
	}
	tests := []struct {
		in   error
		want error
	}{
		{cancelled("None", "ConditionalCheckFailed"), ErrConflict},
		{cancelled("TransactionConflict", "None"), ErrConflict},
		{cancelled("None", "ThrottlingError"), ErrThrottled},
		{cancelled("ProvisionedThroughputExceeded"), ErrThrottled},
		{cancelled("ValidationError"), nil},
	}
	for _, tt := range tests {
		got := wrap("transact", tt.in)
		for _, s := range []error{ErrConflict, ErrThrottled, ErrUnavailable} {
			if errors.Is(got, s) != (s == tt.want) {
				t.Errorf("wrap(%v) = %v, want %v", tt.in, got, tt.want)
			}
		}
	}
}
