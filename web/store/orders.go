package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"regexp"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
)

// DemoCustomer is one of the fictional shoppers whose orders the support desk
// can look up. The chat page maps each learner to one (DemoCustomerFor).
type DemoCustomer struct {
	ID   string
	Name string
	Note string // what makes this customer's orders interesting to ask about
}

// DemoCustomers lists the demo shoppers, in a fixed order.
func DemoCustomers() []DemoCustomer {
	return []DemoCustomer{
		{"cust-ada", "Ada Brennan", "a jacket in transit and a new order still processing"},
		{"cust-bruno", "Bruno Okafor", "a tent out for delivery and a delayed parcel"},
		{"cust-chen", "Chen Wei", "ships to Canada; a cancelled order"},
		{"cust-dara", "Dara Lindqvist", "ships to the UK with DHL; a backordered sleeping bag"},
		{"cust-eli", "Eli Navarro", "a store pickup waiting and a late parcel; a team order"},
		{"cust-fatima", "Fatima Haddad", "a return on its way back and a signature delivery"},
	}
}

// DemoCustomerFor picks a demo customer for a learner, the same one every
// time for the same learner id.
func DemoCustomerFor(learnerID string) string {
	cs := DemoCustomers()
	h := fnv.New32a()
	h.Write([]byte(learnerID))
	return cs[h.Sum32()%uint32(len(cs))].ID
}

// DemoOrderToAsk is the order worth asking about for a demo customer: the
// most recent one still on its way (not delivered, refunded or
// cancelled), else the most recent; "" for an unknown customer.
func DemoOrderToAsk(customer string) string {
	var newest string
	for _, o := range demoOrders() { // newest first within each customer
		if o.Customer != customer {
			continue
		}
		if newest == "" {
			newest = o.ID
		}
		switch o.Status {
		case "delivered", "refunded", "cancelled", "return received":
			continue
		}
		return o.ID
	}
	return newest
}

// DemoEpoch is "now" in the demo shop's world: every demo order is placed a
// fixed time before it, so the seeded data never depends on the wall clock.
func DemoEpoch() time.Time { return time.Date(2026, 11, 20, 17, 0, 0, 0, time.UTC) }

// ago is a time before DemoEpoch; zero days and hours means "never".
func ago(days, hours int) time.Time {
	if days == 0 && hours == 0 {
		return time.Time{}
	}
	return DemoEpoch().Add(-time.Duration(days*24+hours) * time.Hour)
}

// demoOrders is the order service's data: a few dozen orders across the demo
// customers, with the statuses the help centre explains.
func demoOrders() []pipeline.Order {
	o := func(id, cust, status, items, total string, placed, shipped time.Time, carrier, tracking string) pipeline.Order {
		return pipeline.Order{ID: id, Customer: cust, Status: status, Items: items, Total: total,
			Placed: placed, Shipped: shipped, Carrier: carrier, Tracking: tracking}
	}
	none := time.Time{}
	return []pipeline.Order{
		o("NW-10461", "cust-ada", "processing", "Packable Sun Hoodie (M, Sand); Canyon Cap", "$96.00", ago(0, 4), none, "", ""),
		o("NW-10452", "cust-ada", "in transit", "Ridgeline 2L Rain Jacket (M, Moss)", "$189.00", ago(2, 6), ago(1, 20), "UPS", "1Z84W6E20391857262"),
		o("NW-10437", "cust-ada", "delivered", "Merino Crew Socks x3 (M)", "$48.00", ago(12, 3), ago(11, 22), "USPS", "9400111899223857441026"),
		o("NW-10419", "cust-ada", "delivered", "Summit Down Parka (M, Black)", "$329.00", ago(34, 5), ago(33, 21), "FedEx", "771893045526"),
		o("NW-10398", "cust-ada", "refunded", "Trail Runner GTX Shoes (W 8.5)", "$149.00", ago(58, 2), ago(57, 23), "UPS", "1Z84W6E20377120934"),

		o("NW-10458", "cust-bruno", "out for delivery", "Basecamp 2 Tent; Basecamp 2 Footprint", "$349.00", ago(3, 1), ago(2, 19), "FedEx", "771893112045"),
		o("NW-10444", "cust-bruno", "delayed", "Alpine Trekking Poles (pair); Merino Beanie (Charcoal)", "$112.00", ago(9, 7), ago(8, 20), "UPS", "1Z84W6E20381230051"),
		o("NW-10430", "cust-bruno", "delivered", "Cascade Fleece Jacket (L, Navy)", "$89.00", ago(20, 2), ago(19, 22), "USPS", "9400111899223861207733"),
		o("NW-10411", "cust-bruno", "return received", "Highline Hiking Boots (M 11 Wide)", "$219.00", ago(41, 8), ago(40, 21), "UPS", "1Z84W6E20366504418"),
		o("NW-10386", "cust-bruno", "delivered", "Digital gift card $100", "$100.00", ago(70, 3), ago(70, 3), "email delivery", ""),

		o("NW-10455", "cust-chen", "in transit", "Ridgeline 2L Rain Jacket (S, Glacier); Merino Base Layer Top (S)", "$263.00", ago(4, 5), ago(3, 22), "UPS", "1Z84W6E26640003918"),
		o("NW-10439", "cust-chen", "delivered", "Sock Club: Merino Hiking Socks (M, medium cushion)", "$16.00", ago(15, 0), ago(14, 21), "UPS", "1Z84W6E26639871105"),
		o("NW-10423", "cust-chen", "cancelled", "Summit Down Vest (S, Rust)", "$159.00", ago(30, 6), none, "", ""),
		o("NW-10402", "cust-chen", "delivered", "Highline Hiking Boots (W 7)", "$219.00", ago(55, 4), ago(54, 22), "UPS", "1Z84W6E26638452290"),
		o("NW-10391", "cust-chen", "delivered", "Cascade Fleece Jacket (S, Moss); Canyon Cap", "$117.00", ago(63, 9), ago(62, 20), "UPS", "1Z84W6E26637719046"),

		o("NW-10457", "cust-dara", "backordered", "Expedition 0F Down Sleeping Bag (Regular)", "$399.00", ago(1, 12), none, "", ""),
		o("NW-10449", "cust-dara", "delivered", "Cascade Fleece Jacket (M, Heather); Merino Beanie (Moss)", "$121.00", ago(6, 3), ago(5, 22), "DHL Express", "4719283650"),
		o("NW-10433", "cust-dara", "delivered", "Ridgeline 2L Rain Jacket (W M, Ember)", "$189.00", ago(18, 5), ago(17, 21), "DHL Express", "4719104477"),
		o("NW-10408", "cust-dara", "refunded", "Packable Rain Pants (W M)", "$89.00", ago(45, 2), ago(44, 22), "DHL Express", "4718852031"),

		o("NW-10459", "cust-eli", "ready for pickup", "Trail Runner GTX Shoes (M 10); Merino Crew Socks x2 (L)", "$181.00", ago(0, 11), none, "Store pickup (Portland)", ""),
		o("NW-10446", "cust-eli", "in transit", "Summit Down Vest (L, Black)", "$159.00", ago(8, 6), ago(7, 22), "USPS", "9400111899223870015528"),
		o("NW-10425", "cust-eli", "delivered", "Cascade Fleece Jacket x24 with embroidered logo (Teams order)", "$2,424.00", ago(25, 4), ago(23, 21), "FedEx", "771892870311"),
		o("NW-10405", "cust-eli", "delivered", "Basecamp 2 Tent", "$299.00", ago(50, 7), ago(49, 22), "FedEx", "771892541187"),
		o("NW-10393", "cust-eli", "cancelled", "Alpine Trekking Poles (pair)", "$79.00", ago(60, 1), none, "", ""),

		o("NW-10460", "cust-fatima", "shipped", "Packable Rain Pants (W S)", "$89.00", ago(1, 2), ago(0, 14), "UPS", "1Z84W6E20392204479"),
		o("NW-10450", "cust-fatima", "delivered", "Summit Down Parka (W S, Ember); gift wrap", "$334.00", ago(5, 8), ago(4, 21), "FedEx", "771893098843"),
		o("NW-10441", "cust-fatima", "return started", "Highline Hiking Boots (W 8)", "$219.00", ago(11, 4), ago(10, 22), "UPS", "1Z84W6E20383391270"),
		o("NW-10427", "cust-fatima", "delivered", "Merino Base Layer Top (W S); Merino Base Layer Bottom (W S)", "$138.00", ago(22, 3), ago(21, 21), "USPS", "9400111899223859903317"),
		o("NW-10414", "cust-fatima", "delivered", "Northwind Plus membership (1 year)", "$49.00", ago(38, 5), ago(38, 5), "email delivery", ""),
		o("NW-10399", "cust-fatima", "delivered", "Canyon Cap; Packable Sun Hoodie (W M, Sky)", "$96.00", ago(57, 6), ago(56, 22), "USPS", "9400111899223848820164"),
	}
}

func ordersVersion(orders []pipeline.Order) string {
	h := sha256.New()
	for _, o := range orders {
		fmt.Fprintf(h, "%q %q %q %q %q %s %s %q %q\n", o.ID, o.Customer, o.Status, o.Items, o.Total,
			formatTime(o.Placed), optTime(o.Shipped), o.Carrier, o.Tracking)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// fillOrders replaces the orders table with the demo orders: the table holds
// demo data only, so a re-seed may rewrite all of it.
func fillOrders(ctx context.Context, tx *sql.Tx, orders []pipeline.Order) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM orders`); err != nil {
		return fmt.Errorf("clear orders: %w", err)
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO orders (id, customer, status, items, total, placed_at, shipped_at, carrier, tracking)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("prepare order insert: %w", err)
	}
	defer ins.Close()
	for _, o := range orders {
		if _, err := ins.ExecContext(ctx, o.ID, o.Customer, o.Status, o.Items, o.Total,
			formatTime(o.Placed), optTime(o.Shipped), o.Carrier, o.Tracking); err != nil {
			return fmt.Errorf("order %s: %w", o.ID, err)
		}
	}
	return nil
}

func optTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return formatTime(t)
}

// orderNumber finds an order number in free text: "NW-10452", "nw 10452",
// "NW10452" or "#10452"; the first one mentioned wins.
var orderNumber = regexp.MustCompile(`(?i)(?:\bNW[-\s#]?|#)(\d{5})\b`)

// asksAboutAnOrder matches questions about a purchase without its number.
var asksAboutAnOrder = regexp.MustCompile(`(?i)\b(orders?|ordered|parcels?|packages?|deliver(y|ed|ing)?|ship(ped|ment|ping)?|track(ing)?|arriv(e|ed|ing|es)|late|delayed|purchase[sd]?|bought|cancel(led)?|returns?|refunds?|where is my|where are my|nw)\b|\bnw[-\s#]?\d`)

// LookupOrder finds the order a customer's question is about: the order whose
// number the question mentions, else, when the question is about an order
// at all, the customer's most recent order. Only
// the customer's own orders are visible, so a mentioned number that belongs
// to someone else (or to nobody) finds nothing rather than falling back to
// another order. nil, nil means no order was found.
func (s *Store) LookupOrder(ctx context.Context, customer, question string) (*pipeline.Order, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("lookup order: %w", err)
	}
	if customer == "" || len(customer) > MaxIDLen {
		return nil, nil
	}
	const cols = `SELECT id, customer, status, items, total, placed_at, shipped_at, carrier, tracking FROM orders`
	var row *sql.Row
	if id := OrderNumberIn(question); id != "" {
		row = s.db.QueryRowContext(ctx, cols+` WHERE id = ? AND customer = ?`, id, customer)
	} else if !asksAboutAnOrder.MatchString(question) {
		// "What is the TTFT of an 8B model?" is about no order: answering
		// with the latest one's status would be beside the point.
		return nil, nil
	} else {
		row = s.db.QueryRowContext(ctx, cols+` WHERE customer = ? ORDER BY placed_at DESC, id DESC LIMIT 1`, customer)
	}
	var o pipeline.Order
	var placed, shipped string
	err := row.Scan(&o.ID, &o.Customer, &o.Status, &o.Items, &o.Total, &placed, &shipped, &o.Carrier, &o.Tracking)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("lookup order: %w", err)
	}
	o.Placed = parseTime(placed)
	if shipped != "" {
		o.Shipped = parseTime(shipped)
	}
	return &o, nil
}

// OrderNumberIn returns the order number a text mentions, normalised to
// "NW-12345", or "" when it mentions none.
func OrderNumberIn(text string) string {
	if m := orderNumber.FindStringSubmatch(text); m != nil {
		return "NW-" + m[1]
	}
	return ""
}
