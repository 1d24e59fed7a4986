package pipelinelab

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
)

// Customer is the demo customer the labs ask as: the order lookup finds
// this customer's orders (web/store's demo data).
const Customer = "cust-ada"

// Questions are sample support questions whose answers the bundled
// knowledge base holds.
var Questions = []labs.Option{
	{Value: "order", Label: "Where is my order NW-10452?"},
	{Value: "refund", Label: "How long do refunds take?"},
	{Value: "declined", Label: "My card was declined, what can I do?"},
	{Value: "zipper", Label: "The zipper broke on my jacket, is that covered?"},
	{Value: "customs", Label: "Do you ship to Germany? Will I pay customs duties?"},
	{Value: "password", Label: "I forgot my password"},
}

// Question returns the text of a sample question by its value.
func Question(value string) (string, error) {
	for _, q := range Questions {
		if q.Value == value {
			return q.Label, nil
		}
	}
	return "", fmt.Errorf("unknown question %q", value)
}

// earlier is a past conversation with the same customer, oldest first, so
// history has real text of realistic length.
var earlier = []string{
	"Hi, I ordered a rain jacket last week and wanted to check on it.",
	"Happy to help. Your rain jacket order was packed on Tuesday and handed to the carrier on Wednesday; it should reach you within three to five business days.",
	"Great. Can I change the delivery address to my office?",
	"Once a parcel is with the carrier we can no longer edit the address here, but the tracking page lets you redirect it to a pickup point or hold it at the depot.",
	"OK, I'll look at the tracking page. Also, do the jackets run small?",
	"Our jackets follow standard sizing. If you are between two sizes, most customers take the larger one so a fleece fits underneath.",
	"Thanks. If it doesn't fit, how do I send it back?",
	"Start a return from your account within 30 days of delivery, print the prepaid label and drop the parcel at any carrier point. Unworn items with tags attached are refunded in full.",
	"And is the return shipping free?",
	"Returns are free for exchanges. For refunds a small label fee is taken from the refund unless the item was faulty.",
	"Got it. I also have a gift card, can I use it with a promo code?",
	"Yes, a gift card is a payment method, so you can combine it with one promo code at checkout.",
	"The promo code from your newsletter said it was expired yesterday.",
	"Newsletter codes last fourteen days from the send date. I can see yours ran out yesterday, so I've added a fresh ten percent code to your account.",
	"That's kind, thank you. How long do refunds usually take to appear?",
	"Once the warehouse scans your return, the refund is issued within two business days; your bank may take another three to five days to show it.",
	"Perfect. One last thing: do you sell replacement hoods?",
	"We stock replacement hoods for the current season's shells. Search for the jacket's name plus 'hood' in the shop, or ask us and we'll check the fit.",
	"I'll do that. Thanks for all the help today!",
	"You're welcome. Enjoy the jacket, and write any time if something comes up.",
}

// MaxHistoryTurns is how many earlier turns NewConversation can hold.
var MaxHistoryTurns = len(earlier)

// NewConversation returns an in-memory conversation holding the last turns
// of the earlier exchange (oldest first) and its id. Labs use memory rather
// than the database so a knob can pick the exact history length.
func NewConversation(ctx context.Context, id string, turns int, at time.Time) (*pipeline.MemoryConversations, error) {
	if turns < 0 || turns > len(earlier) {
		return nil, fmt.Errorf("history turns %d is outside 0..%d", turns, len(earlier))
	}
	mc := pipeline.NewMemoryConversations()
	for i, text := range earlier[len(earlier)-turns:] {
		role := "user"
		if (len(earlier)-turns+i)%2 == 1 {
			role = "assistant"
		}
		err := mc.SaveMessage(ctx, pipeline.SavedMessage{ConversationID: id, Role: role, Content: text,
			Status: pipeline.StatusComplete, At: at})
		if err != nil {
			return nil, fmt.Errorf("seed history: %w", err)
		}
	}
	return mc, nil
}

// SystemPrompt is the default support instructions opened by a session
// line. The session line makes every run's prompt unique, so a run never
// reuses another's prefix cache in a shared engine and a repeat run is
// not faster than the first for that reason alone.
func SystemPrompt(session string) string {
	return sessionPrefix + session + ".\n" + pipeline.DefaultSystemPrompt
}

const sessionPrefix = "Session "

// WithoutSession drops the session line SystemPrompt opens a prompt with:
// the line is plumbing, and its run id means nothing to a learner.
func WithoutSession(prompt string) string {
	if !strings.HasPrefix(prompt, sessionPrefix) {
		return prompt
	}
	if _, rest, ok := strings.Cut(prompt, "\n"); ok {
		return rest
	}
	return prompt
}

// padding is extra instruction text, cycled to lengthen a system prompt.
var padding = []string{
	"Always greet the customer by name when the order details include it.",
	"Always quote order numbers exactly as they appear in the order details.",
	"Always state a policy's rule first and its exceptions second.",
	"Keep to short paragraphs and avoid lists unless the customer asks for steps.",
	"Do acknowledge an upset customer's feelings in one sentence before answering.",
	"Write dates in the form 3 March rather than as numbers.",
	"Always mention the returns window when a question concerns fit or damage.",
	"Never promise delivery dates that the carrier has not confirmed.",
	"Always offer the tracking link when an order has shipped.",
	"Keep prices in the currency of the customer's order.",
}

// PaddedSystemPrompt is SystemPrompt lengthened with further instructions
// until count reports at least tokens tokens (never shorter than the
// default). count is the tokenizer; the real count decides, not an estimate.
func PaddedSystemPrompt(session string, tokens int, count func(string) int) string {
	var b strings.Builder
	b.WriteString(SystemPrompt(session))
	for i := 0; count(b.String()) < tokens && i < 10000; i++ {
		b.WriteString(" ")
		b.WriteString(padding[i%len(padding)])
	}
	return b.String()
}
