package store

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
)

func TestConversationSaveAndRecentTurns(t *testing.T) {
	ctx := context.Background()
	s, _ := openSeeded(t)
	conv, err := s.CreateConversation(ctx, "learner-a")
	if err != nil {
		t.Fatal(err)
	}
	at := DemoEpoch()
	msgs := []pipeline.SavedMessage{
		{Role: "user", Content: "How long do refunds take?"},
		{Role: "assistant", Content: "Usually 7 to 14 business days.", Status: "complete", PromptTokens: 410, OutputTokens: 12, Tier: "small"},
		{Role: "user", Content: "And for PayPal?"},
		{Role: "assistant", Content: "PayPal refunds take 3 to", Status: "cancelled", PromptTokens: 450, OutputTokens: 7, Tier: "small"},
		{Role: "user", Content: "Sorry, go on"},
		{Role: "assistant", Content: "PayPal refunds", Status: "error", PromptTokens: 470, OutputTokens: 3, Tier: "medium"},
		{Role: "assistant", Content: "", Status: "timeout", PromptTokens: 470, Tier: "large"},
	}
	for i, m := range msgs {
		m.ConversationID = conv
		m.At = at.Add(time.Duration(i) * time.Second)
		if err := s.SaveMessage(ctx, m); err != nil {
			t.Fatalf("SaveMessage %d: %v", i, err)
		}
	}
	tests := []struct {
		max          int
		wantContents []string
	}{
		{0, nil},
		{-1, nil},
		{2, []string{"PayPal refunds", ""}},
		{4, []string{"PayPal refunds take 3 to", "Sorry, go on", "PayPal refunds", ""}},
		{1000, []string{"How long do refunds take?", "Usually 7 to 14 business days.", "And for PayPal?", "PayPal refunds take 3 to", "Sorry, go on", "PayPal refunds", ""}},
	}
	for _, tt := range tests {
		turns, err := s.RecentTurns(ctx, conv, tt.max)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tr := range turns {
			got = append(got, tr.Content)
		}
		if strings.Join(got, "|") != strings.Join(tt.wantContents, "|") || len(got) != len(tt.wantContents) {
			t.Errorf("RecentTurns(%d) = %q, want %q", tt.max, got, tt.wantContents)
		}
	}
	turns, _ := s.RecentTurns(ctx, conv, 4)
	wantStatus := []string{"cancelled", "complete", "error", "timeout"}
	for i, tr := range turns {
		if tr.Status != wantStatus[i] {
			t.Errorf("turn %d status %q, want %q", i, tr.Status, wantStatus[i])
		}
		if want := at.Add(time.Duration(3+i) * time.Second); !tr.At.Equal(want) {
			t.Errorf("turn %d at %v, want %v", i, tr.At, want)
		}
	}

	list, err := s.ListMessages(ctx, "learner-a", conv)
	if err != nil || len(list) != len(msgs) {
		t.Fatalf("ListMessages = %d messages, %v; want %d", len(list), err, len(msgs))
	}
	if m := list[3]; m.Status != "cancelled" || m.PromptTokens != 450 || m.OutputTokens != 7 || m.Tier != "small" || m.Role != "assistant" {
		t.Errorf("message 3 = %+v", m)
	}
	convs, err := s.ListConversations(ctx, "learner-a", 10)
	if err != nil || len(convs) != 1 || convs[0].ID != conv || convs[0].Messages != len(msgs) || convs[0].Title != "How long do refunds take?" {
		t.Fatalf("ListConversations = %+v, %v", convs, err)
	}
}

func TestConversationOwnership(t *testing.T) {
	ctx := context.Background()
	s, _ := openSeeded(t)
	mine, err := s.CreateConversation(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := s.CreateConversation(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if mine == theirs || len(mine) < 20 {
		t.Fatalf("conversation ids %q, %q: want distinct, unguessable", mine, theirs)
	}
	if err := s.SaveMessage(ctx, pipeline.SavedMessage{ConversationID: theirs, Role: "user", Content: "bob's secret", At: DemoEpoch()}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		learner, conv string
		ok            bool
	}{
		{"alice", mine, true},
		{"bob", theirs, true},
		{"alice", theirs, false},
		{"bob", mine, false},
		{"", mine, false},
		{"alice", "c-does-not-exist", false},
		{"alice", "", false},
	}
	for _, tt := range tests {
		_, err := s.ListMessages(ctx, tt.learner, tt.conv)
		if tt.ok && err != nil {
			t.Errorf("ListMessages(%q, %q): %v", tt.learner, tt.conv, err)
		}
		if !tt.ok && !errors.Is(err, ErrConversationNotFound) {
			t.Errorf("ListMessages(%q, %q): %v, want ErrConversationNotFound", tt.learner, tt.conv, err)
		}
		if cerr := s.CheckConversation(ctx, tt.learner, tt.conv); (cerr == nil) != tt.ok {
			t.Errorf("CheckConversation(%q, %q) = %v, want ok=%t", tt.learner, tt.conv, cerr, tt.ok)
		}
	}
	convs, err := s.ListConversations(ctx, "alice", 10)
	if err != nil || len(convs) != 1 || convs[0].ID != mine {
		t.Fatalf("alice's conversations = %+v, %v", convs, err)
	}
}

func TestSaveMessageBadInput(t *testing.T) {
	ctx := context.Background()
	s, _ := openSeeded(t)
	conv, err := s.CreateConversation(ctx, "learner-a")
	if err != nil {
		t.Fatal(err)
	}
	ok := pipeline.SavedMessage{ConversationID: conv, Role: "user", Content: "hi", At: DemoEpoch()}
	tests := []struct {
		name    string
		edit    func(*pipeline.SavedMessage)
		wantErr error
	}{
		{"valid", func(*pipeline.SavedMessage) {}, nil},
		{"empty status means complete", func(m *pipeline.SavedMessage) { m.Status = "" }, nil},
		{"zero time means now", func(m *pipeline.SavedMessage) { m.At = time.Time{} }, nil},
		{"bad role", func(m *pipeline.SavedMessage) { m.Role = "root" }, ErrInvalid},
		{"bad status", func(m *pipeline.SavedMessage) { m.Status = "done" }, ErrInvalid},
		{"oversize", func(m *pipeline.SavedMessage) { m.Content = strings.Repeat("x", MaxMessageBytes+1) }, ErrInvalid},
		{"negative tokens", func(m *pipeline.SavedMessage) { m.OutputTokens = -1 }, ErrInvalid},
		{"unknown conversation", func(m *pipeline.SavedMessage) { m.ConversationID = "nope" }, ErrConversationNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := ok
			tt.edit(&m)
			err := s.SaveMessage(ctx, m)
			if tt.wantErr == nil && err != nil || tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Fatalf("SaveMessage: %v, want %v", err, tt.wantErr)
			}
		})
	}
	if _, err := s.CreateConversation(ctx, ""); !errors.Is(err, ErrInvalid) {
		t.Errorf("CreateConversation with no learner: %v, want ErrInvalid", err)
	}
	if _, err := s.ListConversations(ctx, "learner-a", 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("ListConversations limit 0: %v, want ErrInvalid", err)
	}
	list, err := s.ListMessages(ctx, "learner-a", conv)
	if err != nil || len(list) != 3 || list[1].Status != "complete" || list[2].At.IsZero() {
		t.Errorf("saved messages = %+v, %v", list, err)
	}
}
