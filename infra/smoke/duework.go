package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/xqtour/xqtour/infra/deploy"
	"github.com/xqtour/xqtour/shared/service/items"
	"github.com/xqtour/xqtour/shared/store"
)

// dueCheck runs DueWork as its EventBridge schedule does: an item of work
// due a second ago on an event that no longer exists is owed to nobody, so
// the run finds it, counts it done and deletes it.
func (s *smoke) dueCheck(ctx context.Context) {
	const what = "DueWork     scheduled event → due work done"
	at := time.Now().Add(-time.Second).UnixMilli()
	rec := items.Encode(&store.Record{PK: store.DuePK, SK: store.DueSK(at, "smokegone", 1, ""), Kind: store.KindDue},
		items.Due{Tournament: "smokegone", Round: 1, At: at, Why: "deadline"})
	if err := s.store.Put(ctx, rec); err != nil {
		s.fail(what, "store the due item: "+err.Error())
		return
	}
	ev := events.EventBridgeEvent{Version: "0", ID: "smoke-due", DetailType: "Scheduled Event", Source: "aws.events",
		AccountID: "123456789012", Time: time.Now().UTC(), Region: region,
		Resources: []string{"arn:aws:events:" + region + ":123456789012:rule/smoke-due"}, Detail: json.RawMessage(`{}`)}
	var run struct{ Found, Done, Failed, Left int }
	err := s.invokeRaw(ctx, deploy.FnDueWork, ev, &run)
	if err == nil && (run.Found < 1 || run.Done < 1 || run.Failed != 0) {
		err = fmt.Errorf("run %+v, want the item found and done", run)
	}
	if err == nil {
		if _, gerr := s.store.Get(ctx, rec.PK, rec.SK); gerr == nil {
			err = fmt.Errorf("the due item %s is still there", rec.SK)
		}
	}
	if err != nil {
		s.fail(what, err.Error())
		s.failedFns[deploy.FnDueWork] = true
		return
	}
	s.pass(what, fmt.Sprintf("%+v, the item deleted", run))
}
