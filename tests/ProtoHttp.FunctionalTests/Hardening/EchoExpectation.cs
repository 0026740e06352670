namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// The answer a generated case to the Echo method is due: the message it was written from (a 200 equal to it), or,
/// where one value was made wrong or one name unknown, a 400 whose error text quotes <see cref="Named"/>.
/// </summary>
public sealed record EchoExpectation(Specimen? Echo, IReadOnlyList<string> Named)
{
    public static EchoExpectation Answer(Specimen message) => new(message, []);

    public static EchoExpectation Refusal(params string[] named) => new(null, named);
}
