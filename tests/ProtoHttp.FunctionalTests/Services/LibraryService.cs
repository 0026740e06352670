using Google.Api;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Grpc.Core;
using ProtoHttp.FunctionalTests.Library;

namespace ProtoHttp.FunctionalTests.Services;

/// <summary>
/// The REST tests' Library: every answer is made from the request alone, so ProtoHttp and transcoding, each serving its
/// own instance, answer the same call with the same message. Names ending in <c>missing</c> are not found; a delete of a
/// name ending in <c>locked</c> without <c>force</c> fails its precondition.
/// </summary>
public sealed class LibraryService : Library.Library.LibraryBase
{
    public override Task<Shelf> GetShelf(GetShelfRequest request, ServerCallContext context) =>
        Task.FromResult(ShelfOf(request.Shelf));

    public override Task<ListBooksResponse> ListBooks(ListBooksRequest request, ServerCallContext context) =>
        Task.FromResult(BooksOf(request));

    public override Task<Book> GetBook(GetBookRequest request, ServerCallContext context) =>
        Task.FromResult(BookOf(request.Name));

    public override Task<Book> CreateBook(CreateBookRequest request, ServerCallContext context)
    {
        var book = request.Book?.Clone() ?? new Book();
        book.Name = $"shelves/{request.Shelf}/books/{request.BookId}";
        return Task.FromResult(book);
    }

    public override Task<Book> UpdateBook(UpdateBookRequest request, ServerCallContext context)
    {
        var book = request.Book?.Clone() ?? new Book();
        book.Tags.Add(request.UpdateMask?.Paths ?? []);
        return Task.FromResult(book);
    }

    public override Task<Empty> DeleteBook(DeleteBookRequest request, ServerCallContext context)
    {
        NotFoundIfMissing(request.Name);
        return request.Name.EndsWith("locked", StringComparison.Ordinal) && !request.Force
            ? throw new RpcException(new Status(StatusCode.FailedPrecondition, "The book is locked; delete it with force."))
            : Task.FromResult(new Empty());
    }

    public override Task<Book> MoveBook(MoveBookRequest request, ServerCallContext context) =>
        Task.FromResult(new Book { Name = $"{request.OtherShelf}/books/moved", Title = request.Name });

    public override Task<Shelf> PutShelf(Shelf request, ServerCallContext context) =>
        Task.FromResult(new Shelf(request) { BookCount = request.BookCount + 1 });

    public override Task<SearchResponse> SearchBooks(SearchRequest request, ServerCallContext context) =>
        Task.FromResult(new SearchResponse { Request = request });

    public override Task<ListBooksResponse> ListBookTitles(ListBooksRequest request, ServerCallContext context) =>
        Task.FromResult(BooksOf(request));

    public override Task<BookWithShelf> GetShelfOfBook(GetBookRequest request, ServerCallContext context) =>
        Task.FromResult(new BookWithShelf { Book = BookOf(request.Name), Shelf = ShelfOf(request.Name.Split('/')[1]) });

    public override Task<HttpBody> GetCover(GetBookRequest request, ServerCallContext context)
    {
        NotFoundIfMissing(request.Name);
        return Task.FromResult(new HttpBody { ContentType = "image/x-test", Data = ByteString.CopyFromUtf8("cover of " + request.Name) });
    }

    public override Task<Book> UploadCover(UploadCoverRequest request, ServerCallContext context) =>
        Task.FromResult(new Book { Name = request.Name, Title = request.Cover?.ContentType ?? "", Pages = request.Cover?.Data.Length ?? -1, Author = request.Cover?.Data.ToStringUtf8() ?? "" });

    public override Task<Shelf> ReportShelf(GetShelfRequest request, ServerCallContext context) =>
        Task.FromResult(ShelfOf(request.Shelf));

    public override async Task WatchShelf(WatchRequest request, IServerStreamWriter<Book> responseStream, ServerCallContext context)
    {
        NotFoundIfMissing(request.Shelf);
        for (var i = 0; i < request.Count; i++)
        {
            await responseStream.WriteAsync(BookOf($"shelves/{request.Shelf}/books/{i}"));
        }
    }

    private static Shelf ShelfOf(string id)
    {
        NotFoundIfMissing(id);
        return new Shelf { Id = id, Theme = "theme of " + id, BookCount = id.Length };
    }

    private static Book BookOf(string name)
    {
        NotFoundIfMissing(name);
        return new Book { Name = name, Title = "Title of " + name, Pages = name.Length, Genre = Genre.History, Tags = { "a", "b" }, Rating = 4, Published = Timestamp.FromDateTime(new DateTime(2024, 5, 6, 7, 8, 9, DateTimeKind.Utc)) };
    }

    private static ListBooksResponse BooksOf(ListBooksRequest request)
    {
        NotFoundIfMissing(request.Shelf);
        var answer = new ListBooksResponse { NextPageToken = request.PageToken + "+" + request.PageSize };
        for (var i = 0; i < request.PageSize; i++)
        {
            answer.Books.Add(BookOf($"shelves/{request.Shelf}/books/{i}"));
        }

        return answer;
    }

    private static void NotFoundIfMissing(string name)
    {
        if (name.EndsWith("missing", StringComparison.Ordinal))
        {
            throw new RpcException(new Status(StatusCode.NotFound, $"'{name}' is not in the library."));
        }
    }
}
