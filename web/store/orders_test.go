package store

import (
	"context"
	"testing"
	"time"
)

func TestLookupOrder(t *testing.T) {
	s, _ := openSeeded(t)
	tests := []struct {
		name, customer, question, want string
	}{
		{"number wins", "cust-ada", "where is my order NW-10452?", "NW-10452"},
		{"lower case and space", "cust-ada", "status of nw 10437 please", "NW-10437"},
		{"no dash", "cust-ada", "NW10419 arrived torn", "NW-10419"},
		{"hash form", "cust-ada", "what about #10398", "NW-10398"},
		{"first number mentioned wins", "cust-ada", "NW-10437 or maybe NW-10452", "NW-10437"},
		{"latest when no number", "cust-ada", "where is my stuff?", "NW-10461"},
		{"latest for another customer", "cust-bruno", "when does it arrive", "NW-10458"},
		{"someone else's number finds nothing", "cust-bruno", "where is NW-10452", ""},
		{"unknown number finds nothing", "cust-ada", "where is NW-99999", ""},
		{"six digits is not an order number", "cust-ada", "ref NW-104521", "NW-10461"},
		{"unknown customer", "cust-nobody", "where is my order", ""},
		{"no customer", "", "NW-10452", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := s.LookupOrder(context.Background(), tt.customer, tt.question)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if o != nil {
				got = o.ID
				if o.Customer != tt.customer {
					t.Fatalf("order %s belongs to %s, asked as %s", o.ID, o.Customer, tt.customer)
				}
			}
			if got != tt.want {
				t.Fatalf("LookupOrder = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLookupOrderFields(t *testing.T) {
	s, _ := openSeeded(t)
	o, err := s.LookupOrder(context.Background(), "cust-ada", "NW-10452")
	if err != nil || o == nil {
		t.Fatalf("LookupOrder: %v, %v", o, err)
	}
	if o.Status != "in transit" || o.Carrier != "UPS" || o.Tracking == "" || o.Total != "$189.00" {
		t.Errorf("order fields %+v", o)
	}
	if want := DemoEpoch().Add(-54 * time.Hour); !o.Placed.Equal(want) {
		t.Errorf("placed %v, want %v (fixed, relative to DemoEpoch())", o.Placed, want)
	}
	if !o.Shipped.After(o.Placed) {
		t.Errorf("shipped %v not after placed %v", o.Shipped, o.Placed)
	}
	p, err := s.LookupOrder(context.Background(), "cust-ada", "NW-10461")
	if err != nil || p == nil || !p.Shipped.IsZero() || p.Status != "processing" {
		t.Errorf("unshipped order: %+v, %v", p, err)
	}
}

func TestDemoOrdersAreConsistent(t *testing.T) {
	customers := map[string]bool{}
	for _, c := range DemoCustomers() {
		customers[c.ID] = true
	}
	seen := map[string]bool{}
	perCustomer := map[string]int{}
	for _, o := range demoOrders() {
		switch {
		case seen[o.ID]:
			t.Errorf("duplicate order %s", o.ID)
		case OrderNumberIn(o.ID) != o.ID:
			t.Errorf("order id %s does not parse as an order number", o.ID)
		case !customers[o.Customer]:
			t.Errorf("order %s for unknown customer %s", o.ID, o.Customer)
		case o.Placed.IsZero() || !o.Placed.Before(DemoEpoch()):
			t.Errorf("order %s placed %v, want before DemoEpoch", o.ID, o.Placed)
		case !o.Shipped.IsZero() && o.Shipped.Before(o.Placed):
			t.Errorf("order %s shipped before it was placed", o.ID)
		}
		seen[o.ID] = true
		perCustomer[o.Customer]++
	}
	if len(seen) < 24 {
		t.Errorf("%d demo orders, want a few dozen", len(seen))
	}
	for id := range customers {
		if perCustomer[id] < 3 {
			t.Errorf("customer %s has %d orders, want at least 3", id, perCustomer[id])
		}
	}
	if ordersVersion(demoOrders()) != ordersVersion(demoOrders()) {
		t.Error("orders version is not deterministic")
	}
}

func TestDemoCustomerForIsStableAndSpread(t *testing.T) {
	used := map[string]bool{}
	for i := range 200 {
		id := DemoCustomerFor(string(rune('a'+i%26)) + string(rune('0'+i/26)))
		used[id] = true
	}
	if len(used) != len(DemoCustomers()) {
		t.Errorf("200 learners map to %d of %d customers", len(used), len(DemoCustomers()))
	}
	if DemoCustomerFor("learner-1") != DemoCustomerFor("learner-1") {
		t.Error("mapping not stable")
	}
}

// The chat suggests asking about an order the learner's demo customer
// can see, and one still on its way when the customer has one.
func TestDemoOrderToAsk(t *testing.T) {
	ctx := context.Background()
	s, _ := openSeeded(t)
	for _, c := range DemoCustomers() {
		t.Run(c.ID, func(t *testing.T) {
			id := DemoOrderToAsk(c.ID)
			if id == "" {
				t.Fatal("no order to ask about")
			}
			o, err := s.LookupOrder(ctx, c.ID, "Where is my order "+id+"?")
			if err != nil || o == nil || o.ID != id {
				t.Fatalf("the suggested order %s is not the customer's own: %+v, %v", id, o, err)
			}
			switch o.Status {
			case "delivered", "refunded", "cancelled", "return received":
				t.Errorf("suggests %s, which is %s", id, o.Status)
			}
		})
	}
	if id := DemoOrderToAsk("cust-nobody"); id != "" {
		t.Errorf("an unknown customer gets order %s", id)
	}
}

// Without an order number, only a question about a purchase brings in the
// customer's latest order.
func TestLookupOrderOnlyForOrderQuestions(t *testing.T) {
	ctx := context.Background()
	s, _ := openSeeded(t)
	for _, tc := range []struct {
		question string
		want     string
	}{
		{"Where is my order NW-10452?", "NW-10452"},
		{"Where is my parcel?", "NW-10461"},
		{"When will my jacket arrive?", "NW-10461"},
		{"What is the TTFT of llama 8B on an H100?", ""},
		{"Tell me a joke", ""},
	} {
		o, err := s.LookupOrder(ctx, "cust-ada", tc.question)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if o != nil {
			got = o.ID
		}
		if got != tc.want {
			t.Errorf("%q finds order %q, want %q", tc.question, got, tc.want)
		}
	}
}
