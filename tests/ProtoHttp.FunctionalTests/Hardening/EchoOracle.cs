using System.Collections.Concurrent;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Judges the answers to generated Echo cases (<see cref="EchoCases"/>) against what each case is due
/// (<see cref="EchoExpectation"/>), with Google.Protobuf alone reading the answer: a valid request must be echoed
/// (200) as a message equal, by Google.Protobuf's equality, to the one it was written from; a request with a wrong
/// value or unknown name must be a 400 INVALID_ARGUMENT whose error text quotes the name and the value.
/// </summary>
public sealed class EchoOracle
{
    // The Any a generated Specimen packs holds a Timestamp.
    private static readonly TypeRegistry Types = TypeRegistry.FromFiles(Specimen.Descriptor.File, Google.Protobuf.WellKnownTypes.Timestamp.Descriptor.File);
    private static readonly JsonParser Json = new(JsonParser.Settings.Default.WithTypeRegistry(Types));
    private static readonly JsonFormatter Shown = new(JsonFormatter.Settings.Default.WithTypeRegistry(Types));

    private readonly ConcurrentQueue<string> _differences = new();
    private int _echoes;
    private int _refusals;

    /// <summary>Valid cases whose answer was compared with the message they were written from.</summary>
    public int Echoes => _echoes;

    /// <summary>Wrong cases whose refusal was judged.</summary>
    public int Refusals => _refusals;

    public IReadOnlyCollection<string> Differences => _differences;

    public Task ObserveAsync(FuzzCase fuzzCase, RawResponse response, RawHttpConnection connection)
    {
        if (fuzzCase.Expectation is not { } expectation)
        {
            return Task.CompletedTask;
        }

        var contentType = response.Header("Content-Type");
        if (expectation.Echo is { } expected)
        {
            Interlocked.Increment(ref _echoes);
            if (response.Status != 200)
            {
                Differ(fuzzCase, $"a valid request was refused: {response.Status} {ErrorBody.TryRead(contentType, response.Body)?.ErrorText}");
            }
            else if (TryRead(contentType, response.Body, out var failure) is not { } actual)
            {
                Differ(fuzzCase, $"the echo cannot be read as a Specimen: {failure}");
            }
            else if (!expected.Equals(actual))
            {
                Differ(fuzzCase, $"the echo differs in {string.Join(", ", DifferingFields(expected, actual))}: sent {Shown.Format(expected)}, got {Shown.Format(actual)}");
            }

            return Task.CompletedTask;
        }

        Interlocked.Increment(ref _refusals);
        var error = ErrorBody.TryRead(contentType, response.Body);
        if (response.Status != 400 || error?.Code != "INVALID_ARGUMENT")
        {
            Differ(fuzzCase, $"{response.Status} {error?.Code} where 400 INVALID_ARGUMENT was due: {error?.ErrorText}");
        }
        else if (expectation.Named.FirstOrDefault(n => !error.ErrorText.Contains(n, StringComparison.Ordinal)) is { } missing)
        {
            Differ(fuzzCase, $"the refusal does not name '{missing}': {error.ErrorText}");
        }

        return Task.CompletedTask;
    }

    private static Specimen? TryRead(string? contentType, byte[] body, out string? failure)
    {
        failure = null;
        try
        {
            return ErrorBody.Kind(contentType) switch
            {
                "protobuf" => Specimen.Parser.ParseFrom(body),
                "json" => Json.Parse<Specimen>(Encoding.UTF8.GetString(body)),
                _ => throw new FormatException($"it was asked for in protobuf or JSON, and came as {contentType}"),
            };
        }
        catch (Exception ex) when (ex is InvalidProtocolBufferException or InvalidJsonException or FormatException)
        {
            failure = ex.Message;
            return null;
        }
    }

    private static IEnumerable<string> DifferingFields(Specimen expected, Specimen actual) =>
        Specimen.Descriptor.Fields.InFieldNumberOrder()
            .Where(f => !Equals(f.Accessor.GetValue(expected), f.Accessor.GetValue(actual)) || (f.HasPresence && f.Accessor.HasValue(expected) != f.Accessor.HasValue(actual)))
            .Select(f => f.Name);

    private void Differ(FuzzCase fuzzCase, string difference) =>
        _differences.Enqueue($"{fuzzCase.Verb} [{fuzzCase.ContentType}, accept {fuzzCase.Accept}, {fuzzCase.Mutation}]: {difference}; sent: {Sent(fuzzCase)}");

    private static string Sent(FuzzCase fuzzCase)
    {
        var text = fuzzCase.Body is { } body ? Encoding.UTF8.GetString(body) : fuzzCase.Target;
        return text.Length > 600 ? text[..600] + "…" : text;
    }
}
