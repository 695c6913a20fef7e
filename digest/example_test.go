package digest_test

import (
	"fmt"
	"log"

	"github.com/skillcatalog/skillcatalog/digest"
)

// The digest of a catalog's entries is what decides whether a step
// publishes a new catalog: equal entries in equal order give the equal
// digest in every process and release, and any change to a name, a
// description or their order gives another. Its string form is what
// tokens and logs carry, and Parse reads it back.
func ExampleOf() {
	published := []digest.Entry{
		{Name: "code-review", Description: "Review a change for bugs."},
		{Name: "pdf-forms", Description: "Fill in PDF forms."},
	}
	d := digest.Of(published)
	fmt.Println(d)

	edited := []digest.Entry{
		{Name: "code-review", Description: "Review a change for bugs and style."},
		{Name: "pdf-forms", Description: "Fill in PDF forms."},
	}
	fmt.Println(digest.Of(edited) == d)

	back, err := digest.Parse(d.String())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(back == d)
	// Output:
	// cb87196f16a4286272a7e3a3f9f60e61
	// false
	// true
}
