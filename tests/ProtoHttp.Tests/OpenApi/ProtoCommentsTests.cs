using ProtoHttp.AspNetCore;

namespace ProtoHttp.Tests.OpenApi;

public sealed class ProtoCommentsTests
{
    private const string Source = """
        // The file's header: a blank line parts it from what follows.

        syntax = "proto2";
        package shop.v1;

        // One order.
        // Two lines.
        message Order {
          // The id.
          required int64 id = 1;
          optional string note = 2; // After the field.
          map<string, int32> counts = 3;
          // A nested message.
          message Line {
            // The product.
            optional string product = 1;
          }
          oneof payment {
            // Paid by card.
            string card = 4;
          }
          // A group.
          repeated group Extra = 5 {
            optional string key = 1; // The key.
          }
          /* A block comment
             is not attributed. */
          optional string after_block = 6;
          optional string quoted = 7 [default = "// not a comment {"];
          // Counted after the quoted braces.
          optional int32 last = 8;
        }

        enum Color {
          // Not a field.
          RED = 0;
        }

        // The service.
        service Shop {
          // Places an order.
          rpc Place (Order) returns (Order) {
            option idempotency_level = IDEMPOTENT;
          }
          rpc Plain (Order) returns (Order); // Trailing on the rpc.
        }
        """;

    private static readonly ProtoComments Comments = Parse();

    [Theory]
    [InlineData("shop.v1.Order", "One order.\nTwo lines.")]
    [InlineData("shop.v1.Order.id", "The id.")]
    [InlineData("shop.v1.Order.note", "After the field.")]
    [InlineData("shop.v1.Order.Line", "A nested message.")]
    [InlineData("shop.v1.Order.Line.product", "The product.")]
    [InlineData("shop.v1.Order.card", "Paid by card.")]
    [InlineData("shop.v1.Order.extra", "A group.")]
    [InlineData("shop.v1.Order.Extra", "A group.")]
    [InlineData("shop.v1.Order.Extra.key", "The key.")]
    [InlineData("shop.v1.Order.last", "Counted after the quoted braces.")]
    [InlineData("shop.v1.Shop", "The service.")]
    [InlineData("shop.v1.Shop.Place", "Places an order.")]
    [InlineData("shop.v1.Shop.Plain", "Trailing on the rpc.")]
    public void FindsTheCommentOfEachDeclaration(string fullName, string comment) =>
        Assert.Equal(comment, Comments.For(fullName));

    [Theory]
    [InlineData("shop.v1.Order.counts")] // No comment.
    [InlineData("shop.v1.Order.after_block")] // Block comments are skipped.
    [InlineData("shop.v1.Order.quoted")] // "//" inside a string is not a comment.
    [InlineData("shop.v1.Color.RED")] // Enum values are not described.
    public void FindsNoneWhereThereIsNone(string fullName) => Assert.Null(Comments.For(fullName));

    [Fact]
    public void TheFileHeaderBelongsToNothing() =>
        Assert.DoesNotContain("header", Comments.For("shop.v1.Order"), StringComparison.Ordinal);

    private static ProtoComments Parse()
    {
        var comments = new ProtoComments();
        comments.Add(Source);
        return comments;
    }
}
