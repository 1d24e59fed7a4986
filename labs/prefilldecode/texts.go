package prefilldecode

// The lab's prompts are a support bot's, as the lesson describes it: standing
// instructions, retrieved help-centre passages, earlier turns of the chat and
// the customer's question. The texts are written for this lab; the prompt
// builder cuts them to the token counts the learner picks, so only their
// length matters to the engine, but they read like the real thing and the
// composer answers from them.

// instructions opens every system prompt.
const instructions = "You are the support assistant of Trailhead Outfitters, an online shop for " +
	"hiking and camping gear. Answer the customer's question using the help-centre passages " +
	"and the conversation so far. Keep answers short, friendly and specific: give the next " +
	"step the customer can take, with any dates, amounts or links from the passages. If the " +
	"passages do not cover the question, say so plainly and offer to hand the chat to a human " +
	"agent, who replies within one working day. Never invent order details, prices, " +
	"delivery dates or policies. Do not ask for card numbers or passwords. Refunds go back to " +
	"the original payment method. Use the customer's name when they give it. When an order " +
	"number is mentioned, repeat it so the customer can check it. Write in plain sentences " +
	"without headings or tables, and stop once the question is answered. If the customer is " +
	"upset, acknowledge it in one sentence before helping. Mention the returns portal only " +
	"when the question is about returns or exchanges."

// article is one help-centre page; a retrieved chunk is a slice of one.
type article struct {
	title string
	body  string
}

// helpCentre is the shop's knowledge base. Each body is a little over a
// hundred tokens, so one chunk of about a hundred tokens fits in each.
var helpCentre = []article{
	{"Returns within 60 days", "Unused items can be returned within 60 days of delivery for a full refund. " +
		"Start a return from the returns portal in your account, print the prepaid label and drop the parcel " +
		"at any post office. Refunds reach the original payment method within five working days of the parcel " +
		"arriving at our warehouse. Items that have been worn outdoors are covered by the warranty instead. " +
		"Gift returns are refunded as store credit to the person who received the gift."},
	{"Delivery times and tracking", "Standard delivery takes three to five working days and is free on orders " +
		"over 75 dollars. Express delivery arrives the next working day when ordered before 2 pm. Every parcel " +
		"gets a tracking number by email as soon as it leaves the warehouse, and the tracking page updates " +
		"within a few hours of each scan. A parcel that has not moved for four working days can be reported " +
		"as delayed, and we open an investigation with the carrier."},
	{"Lost and damaged parcels", "If tracking shows a parcel as delivered but it never arrived, check with " +
		"neighbours and the building's mail room first, then report it within 14 days. We send a replacement " +
		"or a refund once the carrier confirms the loss, which usually takes three working days. For damaged " +
		"items, send photos of the parcel and the damage from the order page. You do not need to return " +
		"damaged goods unless we ask for them."},
	{"Warranty on tents and packs", "Tents, backpacks and sleeping bags carry a two-year warranty against " +
		"defects in materials and workmanship. Broken zips, failed seams and snapped poles are covered; wear " +
		"from normal use, fire damage and changes made by the owner are not. To claim, send the order number, " +
		"photos of the fault and a short description. Approved claims are repaired, replaced or refunded, " +
		"and we pay the postage both ways."},
	{"Sizing boots and jackets", "Our hiking boots run small, so most customers order half a size up, " +
		"especially for thick socks. Measure your foot in the evening, when it is largest, and compare the " +
		"length with the size chart on each product page. Jackets follow standard chest sizes and leave room " +
		"for a fleece underneath. If a size is wrong, an exchange is free within 60 days, and we send the new " +
		"size as soon as the return is scanned."},
	{"Changing or cancelling an order", "Orders can be changed or cancelled from your account until they are " +
		"packed, usually within two hours of ordering. After that the order cannot be stopped, but you can " +
		"return it for free once it arrives. Changing the delivery address after dispatch is possible only " +
		"through the carrier's own website with the tracking number. A cancelled order is refunded at once, " +
		"though your bank may take a few days to show it."},
	{"Payment and promo codes", "We accept major cards, PayPal and gift cards. A card is charged when the " +
		"order is dispatched, not when it is placed. Promo codes must be entered before payment and cannot be " +
		"added to an order afterwards. Only one code can be used per order, and codes do not apply to gift " +
		"cards or to items already on sale. If a payment fails, the order is held for 24 hours so you can try " +
		"another method."},
	{"Repairs and spare parts", "Our repair service fixes tents, packs and jackets outside the warranty for a " +
		"flat fee that depends on the job, quoted before any work begins. Typical repairs take two weeks from " +
		"the day the item arrives. Spare poles, buckles, stakes and zip pullers can be ordered from the spare " +
		"parts page and ship with standard delivery. Seam sealer and patch kits are free with any repair we " +
		"carry out."},
	{"Account and sign-in problems", "If you cannot sign in, use the forgotten password link and follow the " +
		"email, which is valid for one hour. Check your spam folder if it does not arrive within ten minutes. " +
		"Accounts are locked for 30 minutes after five failed attempts. Two-step sign-in can be switched on in " +
		"your account settings; if you lose the phone you used for it, contact us with your order history and " +
		"we will verify you another way."},
	{"Stock and restocks", "Items marked out of stock can be put on a restock alert from the product page, and " +
		"you receive one email when they return. Most popular sizes are restocked within four weeks. We do " +
		"not take back orders or hold stock for customers. Items shown as low stock have fewer than five left, " +
		"and stock is only reserved once the order is paid, so an item can sell out while it sits in a basket."},
}

// turn is one message of an earlier conversation.
type turn struct {
	role string
	text string
}

// history is an earlier conversation with the same customer, long enough
// that each message fills a turn of about fifty tokens.
var history = []turn{
	{"user", "Hi, I ordered the Ridgeline 2 tent and a pair of Summit boots last Tuesday, order 48213, and the " +
		"tracking page has said label created for four days now. Is something wrong with the parcel?"},
	{"assistant", "Thanks for the order number, 48213. A label is created when the parcel is packed, and the " +
		"first carrier scan normally follows within a day, so four days without a scan is longer than it " +
		"should be. I can open an investigation with the carrier for you."},
	{"user", "Yes please, open it. I am leaving for a trip in ten days, so I really need the tent before then. " +
		"Is there any way to speed it up or send a replacement with express delivery?"},
	{"assistant", "I have opened the investigation, and the carrier answers within two working days. If the " +
		"parcel is confirmed lost, we send a replacement by express delivery at no cost, which arrives the " +
		"next working day, so you would still have it in time for the trip."},
	{"user", "Great, thank you. While I have you, the boots I ordered are size 42. I read that they run small. " +
		"Should I change them to 42.5 before they arrive, or is it too late for that now?"},
	{"assistant", "The order has already been packed, so it can no longer be changed. Our boots do run small, " +
		"and most people go half a size up. If the 42 feels tight, the exchange is free within 60 days, and " +
		"we send the new size as soon as the return is scanned."},
	{"user", "Okay, that makes sense. One more thing: I used a promo code for ten percent off, but I cannot see " +
		"the discount on the receipt. Was it applied, or did I enter it in the wrong place at checkout?"},
	{"assistant", "The receipt shows the code SPRING10 was accepted and ten percent was taken off the tent, but " +
		"not the boots, because they were already on sale and codes do not apply to sale items. The amount " +
		"charged on dispatch was the discounted total."},
	{"user", "Right, I missed that the boots were on sale. Last question for now: if the tent turns out to " +
		"have a problem after my trip, like a broken pole, what do I do and how long does it take?"},
	{"assistant", "A broken pole is covered by the two-year warranty. Send the order number, a photo of the " +
		"pole and a line about what happened from the order page. Once approved we send a new pole or repair " +
		"the tent, pay the postage both ways, and most repairs take two weeks."},
}

// questions are the customers' questions: the first is the learner's
// request, the second comes from another customer who shares the system
// prompt (the prefix caching comparison).
var questions = []string{
	"The carrier still shows no scan for order 48213 and my trip is in eight days. Can you send the " +
		"replacement tent by express today?",
	"My new backpack arrived with a torn shoulder strap. Do I need to send it back, and how quickly can " +
		"you replace it?",
}
